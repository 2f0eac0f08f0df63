-- The garbage collection of file bytes (domain/versions/files/blob-gc.ts) asks, for a page of
-- stored keys, which ones a file entry still names: an index on the key inside the entry's data,
-- so it reads a few rows per key instead of every entry of every space. (An expression index,
-- which schema.prisma cannot describe; Prisma leaves it alone.)
CREATE INDEX "ContentEntry_file_storageKey_idx" ON "ContentEntry" (("data"->>'storageKey')) WHERE "kind" = 'file';

-- The same question of storage uploads (custom font faces).
CREATE INDEX "StorageUpload_blobKey_idx" ON "StorageUpload" ("blobKey");
