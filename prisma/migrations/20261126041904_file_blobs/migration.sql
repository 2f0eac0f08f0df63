-- CreateTable
CREATE TABLE "FileBlob" (
    "sha256" TEXT NOT NULL,
    "uploadId" UUID NOT NULL,
    "size" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileBlob_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "FileBlobChunk" (
    "uploadId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileBlobChunk_pkey" PRIMARY KEY ("uploadId","index")
);

-- CreateTable
CREATE TABLE "FileBlobTouch" (
    "sha256" TEXT NOT NULL,
    "touchedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FileBlobTouch_pkey" PRIMARY KEY ("sha256")
);

-- CreateIndex
CREATE UNIQUE INDEX "FileBlob_uploadId_key" ON "FileBlob"("uploadId");

-- CreateIndex
CREATE INDEX "FileBlobChunk_createdAt_idx" ON "FileBlobChunk"("createdAt");

-- File bytes are mostly compressed already (images, fonts, PDFs): kept out of line, uncompressed,
-- rather than compressed again for nothing on every write.
ALTER TABLE "FileBlobChunk" ALTER COLUMN "data" SET STORAGE EXTERNAL;
