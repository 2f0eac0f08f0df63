-- Organization search bounded by what it returns (docs/performance.md#search).
-- btree_gin lets a GIN index lead with the space (a text column): a query reads the postings of
-- the spaces it searches only. It is a trusted extension (PostgreSQL 13+): the database owner may create it.
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- The title words of each section (page title A, heading B), kept beside the full vector by the indexer.
ALTER TABLE "SearchSection" ADD COLUMN "titleTsv" tsvector;
UPDATE "SearchSection" SET "titleTsv" = ts_filter("tsv", '{a,b}');
ALTER TABLE "SearchSection" ALTER COLUMN "titleTsv" SET NOT NULL;

-- DropIndex
DROP INDEX "SearchSection_tsv_idx";

-- CreateIndex
CREATE INDEX "SearchSection_spaceId_tsv_idx" ON "SearchSection" USING GIN ("spaceId" text_ops, "tsv");

-- CreateIndex
CREATE INDEX "SearchSection_spaceId_titleTsv_idx" ON "SearchSection" USING GIN ("spaceId" text_ops, "titleTsv");
