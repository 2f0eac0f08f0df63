-- The organization search's title pass (docs/performance.md#search) reads a space's sections in
-- (page, ID) order and tests their title words on the index entry alone (an index-only scan, no
-- sort, no heap row), stopping at its share: the (space, page) index, extended by the ID and
-- carrying `titleTsv`. Its other readers (a page's sections, the body pass) use it as before.
-- DropIndex
DROP INDEX "SearchSection_spaceId_pageId_idx";

-- CreateIndex
CREATE INDEX "SearchSection_spaceId_pageId_id_idx" ON "SearchSection"("spaceId", "pageId", "id") INCLUDE ("titleTsv");
