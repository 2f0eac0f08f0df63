-- CreateTable
CREATE TABLE "RevisionPage" (
    "id" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "parentId" TEXT,
    "type" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "document" JSONB,
    "target" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RevisionPage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RevisionPage_parentId_idx" ON "RevisionPage"("parentId");

-- CreateIndex
CREATE UNIQUE INDEX "RevisionPage_revisionId_path_key" ON "RevisionPage"("revisionId", "path");

-- AddForeignKey
ALTER TABLE "RevisionPage" ADD CONSTRAINT "RevisionPage_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "Revision"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RevisionPage" ADD CONSTRAINT "RevisionPage_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "RevisionPage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
