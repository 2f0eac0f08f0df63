-- CreateEnum
CREATE TYPE "ReviewStatus" AS ENUM ('approved', 'changes-requested');

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "mergeRules" JSONB NOT NULL DEFAULT '{"type":"none"}';

-- AlterTable
ALTER TABLE "Space" ADD COLUMN     "mergeRules" JSONB NOT NULL DEFAULT '{"type":"inherit"}';

-- CreateTable
CREATE TABLE "ChangeRequestReview" (
    "id" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "requestedById" TEXT,
    "status" "ReviewStatus" NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChangeRequestReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestReviewer" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestReviewer_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateTable
CREATE TABLE "SearchSection" (
    "id" BIGSERIAL NOT NULL,
    "spaceId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "anchor" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "tsv" tsvector NOT NULL,

    CONSTRAINT "SearchSection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChangeRequestReview_changeRequestId_createdAt_id_idx" ON "ChangeRequestReview"("changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SearchSection_spaceId_pageId_idx" ON "SearchSection"("spaceId", "pageId");

-- CreateIndex
CREATE INDEX "SearchSection_tsv_idx" ON "SearchSection" USING GIN ("tsv");

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReviewer" ADD CONSTRAINT "ChangeRequestReviewer_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchSection" ADD CONSTRAINT "SearchSection_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
