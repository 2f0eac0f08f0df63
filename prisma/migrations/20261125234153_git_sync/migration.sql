-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "JobKind" ADD VALUE 'git_import';
ALTER TYPE "JobKind" ADD VALUE 'git_export';

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "secret" TEXT;

-- AlterTable
ALTER TABLE "Revision" ADD COLUMN     "git" JSONB;

-- CreateTable
CREATE TABLE "GitSync" (
    "spaceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "projectDirectory" TEXT NOT NULL DEFAULT '',
    "repoTreeURL" TEXT,
    "repoCommitURL" TEXT,
    "commitOid" TEXT,
    "revisionId" TEXT,
    "lastTimestamp" TIMESTAMP(3),
    "operationJobId" TEXT,
    "operationState" TEXT,
    "operationDirection" TEXT,
    "operationStartedAt" TIMESTAMP(3),
    "operationEndedAt" TIMESTAMP(3),
    "operationError" TEXT,
    "conflictChangeRequestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GitSync_pkey" PRIMARY KEY ("spaceId")
);

-- CreateTable
CREATE TABLE "GitSyncBlob" (
    "spaceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "oid" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "parentId" TEXT,

    CONSTRAINT "GitSyncBlob_pkey" PRIMARY KEY ("spaceId","kind","entityId")
);

-- CreateIndex
CREATE INDEX "GitSyncBlob_spaceId_path_idx" ON "GitSyncBlob"("spaceId", "path");

-- AddForeignKey
ALTER TABLE "GitSync" ADD CONSTRAINT "GitSync_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GitSyncBlob" ADD CONSTRAINT "GitSyncBlob_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
