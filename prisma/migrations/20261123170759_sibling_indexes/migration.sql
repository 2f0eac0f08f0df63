-- DropIndex
DROP INDEX "ContentEntry_lineId_parentId_idx";

-- CreateIndex
CREATE INDEX "ContentEntry_lineId_parentId_slug_idx" ON "ContentEntry"("lineId", "parentId", "slug");

-- Positions are fractional keys compared byte-wise: the column sorts in "C" order whatever the
-- database's collation, so the index below serves sibling order (Prisma does not model column
-- collations; it leaves this one alone).
ALTER TABLE "ContentEntry" ALTER COLUMN "position" TYPE TEXT COLLATE "C";

-- CreateIndex
CREATE INDEX "ContentEntry_lineId_parentId_position_idx" ON "ContentEntry"("lineId", "parentId", "position");
