-- Published sites are served from a per-instance cache (src/published/cache/): every write that
-- changes what a site shows (the site row: customization, visibility, publication, hostname; its
-- sections, site spaces, external links and share links; a space on it: a merge moves its
-- revision, a rename, a deletion) tells every instance, on the channel `quire_published`, which
-- site changed. A trigger catches every writer (API, jobs, CLI); PostgreSQL delivers the
-- notification only when the transaction commits, to every listening connection.
CREATE FUNCTION "published_site_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
  IF TG_TABLE_NAME = 'Site' THEN
    PERFORM pg_notify('quire_published', changed."id");
  ELSIF TG_TABLE_NAME = 'Space' THEN
    PERFORM pg_notify('quire_published', ss."siteId") FROM "SiteSpace" ss WHERE ss."spaceId" = changed."id";
  ELSE
    PERFORM pg_notify('quire_published', changed."siteId");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "published_site_changed" AFTER INSERT OR UPDATE OR DELETE ON "Site"
  FOR EACH ROW EXECUTE FUNCTION "published_site_changed"();
CREATE TRIGGER "published_site_changed" AFTER INSERT OR UPDATE OR DELETE ON "SiteSection"
  FOR EACH ROW EXECUTE FUNCTION "published_site_changed"();
CREATE TRIGGER "published_site_changed" AFTER INSERT OR UPDATE OR DELETE ON "SiteSpace"
  FOR EACH ROW EXECUTE FUNCTION "published_site_changed"();
CREATE TRIGGER "published_site_changed" AFTER INSERT OR UPDATE OR DELETE ON "SiteExternalLink"
  FOR EACH ROW EXECUTE FUNCTION "published_site_changed"();
CREATE TRIGGER "published_site_changed" AFTER INSERT OR UPDATE OR DELETE ON "SiteShareLink"
  FOR EACH ROW EXECUTE FUNCTION "published_site_changed"();
-- A space's row changes often (its updatedAt on each edit): only those of spaces on a site notify.
CREATE TRIGGER "published_site_changed" AFTER UPDATE OR DELETE ON "Space"
  FOR EACH ROW EXECUTE FUNCTION "published_site_changed"();
