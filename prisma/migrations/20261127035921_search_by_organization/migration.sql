-- The search of an organization of many spaces reads its sections organization-wide
-- (docs/performance.md#search): each section carries its space's organization, kept by the
-- foreign key on (space, organization) when a space is transferred, and indexed as the space is.
-- DropForeignKey
ALTER TABLE "SearchSection" DROP CONSTRAINT "SearchSection_spaceId_fkey";

-- AlterTable: each section takes its space's organization.
ALTER TABLE "SearchSection" ADD COLUMN     "organizationId" TEXT;
UPDATE "SearchSection" ss SET "organizationId" = s."organizationId" FROM "Space" s WHERE s."id" = ss."spaceId";
ALTER TABLE "SearchSection" ALTER COLUMN "organizationId" SET NOT NULL;

-- CreateIndex
CREATE INDEX "SearchSection_organizationId_tsv_idx" ON "SearchSection" USING GIN ("organizationId" text_ops, "tsv");

-- CreateIndex
CREATE INDEX "SearchSection_organizationId_titleTsv_idx" ON "SearchSection" USING GIN ("organizationId" text_ops, "titleTsv");

-- CreateIndex: the organization's sections, newest first, carrying what the title pass reads (the
-- ID, the space and `titleTsv`: it tests the words on the index entry and reads no row, as the
-- (space, page, ID) index lets it space by space). On the negated ID, an expression schema.prisma
-- cannot declare (Prisma leaves such indexes alone): ordered by "id" itself, the planner reads the
-- primary key backwards and filters the organization, through every newer section of other
-- organizations.
CREATE INDEX "SearchSection_organizationId_newest_idx" ON "SearchSection"("organizationId", (-"id")) INCLUDE ("id", "spaceId", "titleTsv");

-- CreateIndex
CREATE UNIQUE INDEX "Space_id_organizationId_key" ON "Space"("id", "organizationId");

-- AddForeignKey
ALTER TABLE "SearchSection" ADD CONSTRAINT "SearchSection_spaceId_organizationId_fkey" FOREIGN KEY ("spaceId", "organizationId") REFERENCES "Space"("id", "organizationId") ON DELETE CASCADE ON UPDATE CASCADE;
