-- DropForeignKey
ALTER TABLE "RevisionPage" DROP CONSTRAINT "RevisionPage_parentId_fkey";

-- DropForeignKey
ALTER TABLE "RevisionPage" DROP CONSTRAINT "RevisionPage_revisionId_fkey";

-- DropIndex
DROP INDEX "ChangeRequest_spaceId_status_idx";

-- AlterTable
ALTER TABLE "ChangeRequest" ADD COLUMN     "description" JSONB,
ADD COLUMN     "mergedAt" TIMESTAMP(3),
ADD COLUMN     "mergedById" TEXT;

-- AlterTable: existing revisions become their space's line, numbered by creation.
ALTER TABLE "Revision" ADD COLUMN     "baseRevisionId" TEXT,
ADD COLUMN     "baseSeq" INTEGER,
ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "lineId" TEXT,
ADD COLUMN     "mergedFromId" TEXT,
ADD COLUMN     "seq" INTEGER;
UPDATE "Revision" r SET "lineId" = r."spaceId", "seq" = n.seq
FROM (SELECT "id", row_number() OVER (PARTITION BY "spaceId" ORDER BY "createdAt", "id")::int AS seq FROM "Revision") n
WHERE n."id" = r."id";
ALTER TABLE "Revision" ALTER COLUMN "lineId" SET NOT NULL, ALTER COLUMN "seq" SET NOT NULL;

-- AlterTable
ALTER TABLE "Space" ADD COLUMN     "lastChangeRequestNumber" INTEGER NOT NULL DEFAULT 0;

-- DropTable: RevisionPage had no write path (pages are written from this migration on, as
-- ContentEntry rows), so it holds nothing to carry over.
DROP TABLE "RevisionPage";

-- CreateTable
CREATE TABLE "ContentEntry" (
    "id" BIGSERIAL NOT NULL,
    "spaceId" TEXT NOT NULL,
    "lineId" TEXT NOT NULL,
    "fromSeq" INTEGER NOT NULL,
    "toSeq" INTEGER,
    "kind" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "parentId" TEXT,
    "position" TEXT NOT NULL DEFAULT '',
    "type" TEXT NOT NULL DEFAULT '',
    "title" TEXT NOT NULL DEFAULT '',
    "slug" TEXT NOT NULL DEFAULT '',
    "documentId" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Document" (
    "id" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Document_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ContentEntry_lineId_entityId_fromSeq_idx" ON "ContentEntry"("lineId", "entityId", "fromSeq");

-- CreateIndex
CREATE INDEX "ContentEntry_lineId_kind_toSeq_entityId_idx" ON "ContentEntry"("lineId", "kind", "toSeq", "entityId");

-- CreateIndex
CREATE INDEX "ContentEntry_lineId_parentId_idx" ON "ContentEntry"("lineId", "parentId");

-- CreateIndex
CREATE INDEX "ContentEntry_documentId_idx" ON "ContentEntry"("documentId");

-- CreateIndex
CREATE INDEX "ChangeRequest_spaceId_status_number_idx" ON "ChangeRequest"("spaceId", "status", "number");

-- CreateIndex
CREATE INDEX "Revision_lineId_createdById_idx" ON "Revision"("lineId", "createdById");

-- CreateIndex
CREATE UNIQUE INDEX "Revision_lineId_seq_key" ON "Revision"("lineId", "seq");

-- AddForeignKey
ALTER TABLE "ContentEntry" ADD CONSTRAINT "ContentEntry_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContentEntry" ADD CONSTRAINT "ContentEntry_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "Document"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
