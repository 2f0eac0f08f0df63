-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "roleMemberCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "seenMemberCount" INTEGER NOT NULL DEFAULT 0;


-- Installs the three triggers of a counter kept by quire_count() (see *_access_index): `columns`
-- are those whose update can change the key or the condition. Later migrations reuse it.
CREATE FUNCTION quire_add_counter(counted text, owner text, counter text, key text, condition text, columns text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  args text := format('%L, %L, %L, %L', owner, counter, key, condition);
  changed text := format('OLD.%1$I IS DISTINCT FROM NEW.%1$I OR (%2$s) IS DISTINCT FROM (%3$s)',
    key, replace(condition, '{row}', 'OLD'), replace(condition, '{row}', 'NEW'));
  name text := counted || '_count_' || counter || '_' || owner;
BEGIN
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_count(%s)',
    name || '_insert', counted, args);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_count(%s)',
    name || '_delete', counted, args);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE OF %s ON %I FOR EACH ROW WHEN (%s) EXECUTE FUNCTION quire_count(%s)',
    name || '_update', columns, counted, changed, args);
END $$;

-- Members who see all content (the unfiltered "who has access" count is these plus the guests a
-- grant reaches), and members listed by the `lastSeenAt` sort.
SELECT quire_add_counter('Member', 'Organization', 'roleMemberCount', 'organizationId',
  '{row}."role" IS NOT NULL AND NOT {row}."disabled"', '"organizationId", "role", "disabled"');
SELECT quire_add_counter('Member', 'Organization', 'seenMemberCount', 'organizationId',
  '{row}."lastSeenAt" IS NOT NULL', '"organizationId", "lastSeenAt"');

UPDATE "Organization" o SET
  "roleMemberCount" = (SELECT count(*) FROM "Member" m WHERE m."organizationId" = o."id" AND m."role" IS NOT NULL AND NOT m."disabled"),
  "seenMemberCount" = (SELECT count(*) FROM "Member" m WHERE m."organizationId" = o."id" AND m."lastSeenAt" IS NOT NULL);
