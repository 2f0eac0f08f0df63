-- AlterTable
ALTER TABLE "ContentEntry" ADD COLUMN     "linkTarget" TEXT;

-- CreateTable
CREATE TABLE "DocumentLink" (
    "documentId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT,
    "ref" JSONB NOT NULL,

    CONSTRAINT "DocumentLink_pkey" PRIMARY KEY ("documentId","ordinal")
);

-- CreateIndex
CREATE INDEX "DocumentLink_target_idx" ON "DocumentLink"("target");

-- CreateIndex
CREATE INDEX "ContentEntry_lineId_linkTarget_idx" ON "ContentEntry"("lineId", "linkTarget");

-- AddForeignKey
ALTER TABLE "DocumentLink" ADD CONSTRAINT "DocumentLink_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "Document"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: DocumentLink (documents stored before this migration). From here on putDocuments
-- writes a document's links in the statement that stores it, so every Document row has its links.
-- The same walk as content-links/extract.ts: depth-first, a node before its children, `nodes`
-- before `fragments`; a link counts when its `data.ref` is a JSON object. `path` (child indexes
-- from the root) sorts in that order; `ordinal` numbers the links from 0. `target` as
-- content-links/extract.ts `refTarget` computes it.
WITH RECURSIVE walk ("documentId", "node", "path") AS (
  SELECT d."id", d."body", ARRAY[]::int[] FROM "Document" d
  UNION ALL
  SELECT w."documentId", c."child", w."path" || c."index"
  FROM walk w
  CROSS JOIN LATERAL (
    SELECT n."value" AS "child", (n."ordinality" - 1)::int AS "index"
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(w."node"->'nodes') = 'array' THEN w."node"->'nodes' ELSE '[]'::jsonb END) WITH ORDINALITY n
    UNION ALL
    SELECT f."value", (CASE WHEN jsonb_typeof(w."node"->'nodes') = 'array' THEN jsonb_array_length(w."node"->'nodes') ELSE 0 END + f."ordinality" - 1)::int
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(w."node"->'fragments') = 'array' THEN w."node"->'fragments' ELSE '[]'::jsonb END) WITH ORDINALITY f
  ) c
  WHERE jsonb_typeof(w."node") = 'object'
),
refs AS (
  SELECT "documentId", "path", "node"->'data'->'ref' AS "ref" FROM walk
  WHERE jsonb_typeof("node") = 'object' AND jsonb_typeof("node"->'data') = 'object' AND jsonb_typeof("node"->'data'->'ref') = 'object'
    AND (("node"->'object' = '"inline"'::jsonb AND "node"->'type' = '"link"'::jsonb)
      OR ("node"->'object' = '"block"'::jsonb AND "node"->'type' IN ('"image"'::jsonb, '"file"'::jsonb, '"content-ref"'::jsonb, '"reusable-content"'::jsonb)))
),
typed AS (
  SELECT "documentId", "path", "ref", CASE WHEN jsonb_typeof("ref"->'kind') = 'string' THEN "ref"->>'kind' ELSE '' END AS "kind" FROM refs
)
INSERT INTO "DocumentLink" ("documentId", "ordinal", "kind", "target", "ref")
SELECT "documentId",
  (row_number() OVER (PARTITION BY "documentId" ORDER BY "path") - 1)::int,
  "kind",
  CASE "kind"
    WHEN 'page' THEN CASE WHEN jsonb_typeof("ref"->'page') = 'string' THEN "ref"->>'page' END
    WHEN 'anchor' THEN CASE WHEN jsonb_typeof("ref"->'page') = 'string' THEN "ref"->>'page' END
    WHEN 'file' THEN CASE WHEN jsonb_typeof("ref"->'file') = 'string' THEN "ref"->>'file' END
    WHEN 'space' THEN CASE WHEN jsonb_typeof("ref"->'space') = 'string' THEN "ref"->>'space' END
    WHEN 'collection' THEN CASE WHEN jsonb_typeof("ref"->'collection') = 'string' THEN "ref"->>'collection' END
    WHEN 'user' THEN CASE WHEN jsonb_typeof("ref"->'user') = 'string' THEN "ref"->>'user' END
    WHEN 'reusable-content' THEN CASE WHEN jsonb_typeof("ref"->'reusableContent') = 'string' THEN "ref"->>'reusableContent' END
  END,
  "ref"
FROM typed
ON CONFLICT DO NOTHING;

-- Backfill: ContentEntry.linkTarget of link pages (commit.ts sets it on the versions it writes).
UPDATE "ContentEntry" SET "linkTarget" = CASE "data"->'target'->>'kind' WHEN 'file' THEN "data"->'target'->>'file' ELSE "data"->'target'->>'page' END
WHERE "kind" = 'page' AND "type" = 'link' AND jsonb_typeof("data"->'target') = 'object'
  AND (("data"->'target'->'kind' IN ('"page"'::jsonb, '"anchor"'::jsonb) AND jsonb_typeof("data"->'target'->'page') = 'string')
    OR ("data"->'target'->'kind' = '"file"'::jsonb AND jsonb_typeof("data"->'target'->'file') = 'string'));
