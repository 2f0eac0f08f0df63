-- DropIndex
DROP INDEX "Collection_organizationId_parentId_position_idx";

-- DropIndex
DROP INDEX "Member_userId_idx";

-- DropIndex
DROP INDEX "Space_organizationId_deletedAt_createdAt_idx";

-- DropIndex
DROP INDEX "Space_parentId_position_idx";

-- DropIndex
DROP INDEX "Team_organizationId_createdAt_idx";

-- AlterTable
ALTER TABLE "Collection" ADD COLUMN     "ancestors" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "collectionCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "spaceCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "treeKey" BYTEA NOT NULL DEFAULT '\x';

-- AlterTable
ALTER TABLE "Member" ADD COLUMN     "sortName" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "collectionCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "memberCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rootCollectionCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "spaceCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "teamCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Space" ADD COLUMN     "changeRequestCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "draftChangeRequestCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "openChangeRequestCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "openCommentCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "memberCount" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Collection_organizationId_parentId_position_id_idx" ON "Collection"("organizationId", "parentId", "position", "id");

-- CreateIndex
CREATE INDEX "Collection_parentId_position_id_idx" ON "Collection"("parentId", "position", "id");

-- CreateIndex
CREATE INDEX "Collection_organizationId_treeKey_idx" ON "Collection"("organizationId", "treeKey");

-- CreateIndex
CREATE INDEX "Collection_ancestors_idx" ON "Collection" USING GIN ("ancestors");

-- CreateIndex
CREATE INDEX "ContentPermission_userId_idx" ON "ContentPermission"("userId");

-- CreateIndex
CREATE INDEX "ContentPermission_teamId_idx" ON "ContentPermission"("teamId");

-- CreateIndex
CREATE INDEX "Member_userId_joinedAt_organizationId_idx" ON "Member"("userId", "joinedAt", "organizationId");

-- CreateIndex
CREATE INDEX "Member_organizationId_joinedAt_userId_idx" ON "Member"("organizationId", "joinedAt", "userId");

-- CreateIndex
CREATE INDEX "Member_organizationId_lastSeenAt_userId_idx" ON "Member"("organizationId", "lastSeenAt", "userId");

-- CreateIndex
CREATE INDEX "Member_organizationId_sortName_userId_idx" ON "Member"("organizationId", "sortName", "userId");

-- CreateIndex
CREATE INDEX "Member_organizationId_role_joinedAt_userId_idx" ON "Member"("organizationId", "role", "joinedAt", "userId");

-- CreateIndex
CREATE INDEX "Space_organizationId_deletedAt_createdAt_id_idx" ON "Space"("organizationId", "deletedAt", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Space_parentId_deletedAt_position_id_idx" ON "Space"("parentId", "deletedAt", "position", "id");

-- CreateIndex
CREATE INDEX "Team_organizationId_createdAt_id_idx" ON "Team"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "TeamMember_teamId_createdAt_userId_idx" ON "TeamMember"("teamId", "createdAt", "userId");

-- ---------------------------------------------------------------------------------------------
-- Derived data kept by triggers, so that every write path (domain commands, bulk loads, manual
-- SQL) keeps it true. Prisma's schema diff does not model functions and triggers: they live here.
-- ---------------------------------------------------------------------------------------------

-- The collection tree index: `ancestors` (root … self) and `treeKey` (depth-first order: per
-- level the big-endian position then the ID, which has a fixed length). Children are refreshed
-- when a collection's key changes (touching their position re-runs this trigger on them).
CREATE FUNCTION quire_collection_tree() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent_ancestors text[] := '{}';
  parent_key bytea := '\x';
BEGIN
  IF NEW."parentId" IS NOT NULL THEN
    SELECT "ancestors", "treeKey" INTO parent_ancestors, parent_key FROM "Collection" WHERE "id" = NEW."parentId";
    IF NOT FOUND THEN
      RAISE EXCEPTION 'parent collection % does not exist', NEW."parentId" USING ERRCODE = 'foreign_key_violation';
    END IF;
  END IF;
  NEW."ancestors" := parent_ancestors || NEW."id";
  NEW."treeKey" := parent_key || int4send(NEW."position") || convert_to(NEW."id", 'UTF8');
  RETURN NEW;
END $$;

CREATE FUNCTION quire_collection_tree_children() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."treeKey" IS DISTINCT FROM OLD."treeKey" THEN
    UPDATE "Collection" SET "position" = "position" WHERE "parentId" = NEW."id";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Collection_tree" BEFORE INSERT OR UPDATE OF "parentId", "position" ON "Collection"
  FOR EACH ROW EXECUTE FUNCTION quire_collection_tree();
CREATE TRIGGER "Collection_tree_children" AFTER UPDATE OF "parentId", "position" ON "Collection"
  FOR EACH ROW EXECUTE FUNCTION quire_collection_tree_children();

WITH RECURSIVE tree AS (
  SELECT "id", ARRAY["id"] AS ancestors, int4send("position") || convert_to("id", 'UTF8') AS key
  FROM "Collection" WHERE "parentId" IS NULL
  UNION ALL
  SELECT c."id", t.ancestors || c."id", t.key || int4send(c."position") || convert_to(c."id", 'UTF8')
  FROM "Collection" c JOIN tree t ON c."parentId" = t."id"
)
UPDATE "Collection" c SET "ancestors" = tree.ancestors, "treeKey" = tree.key FROM tree WHERE c."id" = tree."id";

-- Member.sortName follows the user's display name.
CREATE FUNCTION quire_member_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT lower("displayName") INTO NEW."sortName" FROM "User" WHERE "id" = NEW."userId";
  RETURN NEW;
END $$;

CREATE FUNCTION quire_user_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Member" SET "sortName" = lower(NEW."displayName") WHERE "userId" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "Member_sort_name" BEFORE INSERT OR UPDATE OF "userId" ON "Member"
  FOR EACH ROW EXECUTE FUNCTION quire_member_sort_name();
CREATE TRIGGER "User_sort_name" AFTER UPDATE OF "displayName" ON "User"
  FOR EACH ROW WHEN (OLD."displayName" IS DISTINCT FROM NEW."displayName") EXECUTE FUNCTION quire_user_sort_name();

UPDATE "Member" m SET "sortName" = lower(u."displayName") FROM "User" u WHERE u."id" = m."userId";

-- Counters. quire_count(owner table, counter column, key column, condition) adds +1/-1 to the
-- owner row named by the key of each counted row that meets the condition (`{row}` stands for the
-- counted row). Inserts and deletes count a whole statement at once (transition tables, so bulk
-- loads update each owner once); updates run per row, only when the key or condition changed.
CREATE FUNCTION quire_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner_table text := TG_ARGV[0];
  counter text := TG_ARGV[1];
  key_column text := TG_ARGV[2];
  condition text := replace(TG_ARGV[3], '{row}', 'r');
  counted text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    counted := format('SELECT r.%I AS key, 1 AS n FROM new_rows r WHERE %s', key_column, condition);
  ELSIF TG_OP = 'DELETE' THEN
    counted := format('SELECT r.%I AS key, -1 AS n FROM old_rows r WHERE %s', key_column, condition);
  ELSE
    counted := format(
      'SELECT r.%1$I AS key, -1 AS n FROM (SELECT ($1).*) r WHERE %2$s UNION ALL SELECT r.%1$I, 1 FROM (SELECT ($2).*) r WHERE %2$s',
      key_column, condition);
  END IF;
  EXECUTE format(
    'UPDATE %1$I o SET %2$I = o.%2$I + d.n FROM (SELECT key, sum(n) AS n FROM (%3$s) c WHERE key IS NOT NULL GROUP BY key HAVING sum(n) <> 0) d WHERE o."id" = d.key',
    owner_table, counter, counted) USING OLD, NEW;
  RETURN NULL;
END $$;

DO $do$
DECLARE
  c record;
  args text;
  changed text;
BEGIN
  FOR c IN SELECT * FROM (VALUES
    ('Space', 'Organization', 'spaceCount', 'organizationId', '{row}."deletedAt" IS NULL', '"organizationId", "deletedAt"'),
    ('Space', 'Collection', 'spaceCount', 'parentId', '{row}."deletedAt" IS NULL', '"parentId", "deletedAt"'),
    ('Collection', 'Organization', 'collectionCount', 'organizationId', 'true', '"organizationId"'),
    ('Collection', 'Organization', 'rootCollectionCount', 'organizationId', '{row}."parentId" IS NULL', '"organizationId", "parentId"'),
    ('Collection', 'Collection', 'collectionCount', 'parentId', 'true', '"parentId"'),
    ('Member', 'Organization', 'memberCount', 'organizationId', 'true', '"organizationId"'),
    ('Team', 'Organization', 'teamCount', 'organizationId', 'true', '"organizationId"'),
    ('TeamMember', 'Team', 'memberCount', 'teamId', 'true', '"teamId"'),
    ('Comment', 'Space', 'openCommentCount', 'spaceId', '{row}."status" = ''open''', '"spaceId", "status"'),
    ('ChangeRequest', 'Space', 'changeRequestCount', 'spaceId', 'true', '"spaceId"'),
    ('ChangeRequest', 'Space', 'openChangeRequestCount', 'spaceId', '{row}."status" = ''open''', '"spaceId", "status"'),
    ('ChangeRequest', 'Space', 'draftChangeRequestCount', 'spaceId', '{row}."status" = ''draft''', '"spaceId", "status"')
  ) AS spec(counted, owner, counter, key, condition, columns) LOOP
    args := format('%L, %L, %L, %L', c.owner, c.counter, c.key, c.condition);
    changed := format('OLD.%1$I IS DISTINCT FROM NEW.%1$I OR (%2$s) IS DISTINCT FROM (%3$s)',
      c.key, replace(c.condition, '{row}', 'OLD'), replace(c.condition, '{row}', 'NEW'));
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_count(%s)',
      c.counted || '_count_' || c.counter || '_' || c.owner || '_insert', c.counted, args);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_count(%s)',
      c.counted || '_count_' || c.counter || '_' || c.owner || '_delete', c.counted, args);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE OF %s ON %I FOR EACH ROW WHEN (%s) EXECUTE FUNCTION quire_count(%s)',
      c.counted || '_count_' || c.counter || '_' || c.owner || '_update', c.columns, c.counted, changed, args);
  END LOOP;
END $do$;

UPDATE "Organization" o SET
  "spaceCount" = (SELECT count(*) FROM "Space" s WHERE s."organizationId" = o."id" AND s."deletedAt" IS NULL),
  "collectionCount" = (SELECT count(*) FROM "Collection" c WHERE c."organizationId" = o."id"),
  "rootCollectionCount" = (SELECT count(*) FROM "Collection" c WHERE c."organizationId" = o."id" AND c."parentId" IS NULL),
  "memberCount" = (SELECT count(*) FROM "Member" m WHERE m."organizationId" = o."id"),
  "teamCount" = (SELECT count(*) FROM "Team" t WHERE t."organizationId" = o."id");
UPDATE "Collection" c SET
  "spaceCount" = (SELECT count(*) FROM "Space" s WHERE s."parentId" = c."id" AND s."deletedAt" IS NULL),
  "collectionCount" = (SELECT count(*) FROM "Collection" k WHERE k."parentId" = c."id");
UPDATE "Team" t SET "memberCount" = (SELECT count(*) FROM "TeamMember" m WHERE m."teamId" = t."id");
UPDATE "Space" s SET
  "openCommentCount" = (SELECT count(*) FROM "Comment" k WHERE k."spaceId" = s."id" AND k."status" = 'open'),
  "changeRequestCount" = (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s."id"),
  "openChangeRequestCount" = (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s."id" AND r."status" = 'open'),
  "draftChangeRequestCount" = (SELECT count(*) FROM "ChangeRequest" r WHERE r."spaceId" = s."id" AND r."status" = 'draft');
