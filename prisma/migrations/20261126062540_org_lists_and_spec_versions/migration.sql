-- CreateEnum
CREATE TYPE "OpenAPISpecVisibility" AS ENUM ('private', 'public');

-- AlterTable
ALTER TABLE "ChangeRequest" ADD COLUMN     "organizationId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "OpenAPISpec" ADD COLUMN     "visibility" "OpenAPISpecVisibility" NOT NULL DEFAULT 'private';

-- AlterTable
ALTER TABLE "OpenAPISpecVersion" ADD COLUMN     "sourceUrl" TEXT;

-- A change request's organization is its space's: set on insert (whatever the insert said), and
-- followed when the space is transferred to another organization.
UPDATE "ChangeRequest" r SET "organizationId" = s."organizationId" FROM "Space" s WHERE s."id" = r."spaceId";

CREATE FUNCTION "change_request_organization"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."organizationId" := (SELECT s."organizationId" FROM "Space" s WHERE s."id" = NEW."spaceId");
  RETURN NEW;
END $$;

CREATE TRIGGER "change_request_organization" BEFORE INSERT OR UPDATE OF "spaceId" ON "ChangeRequest"
  FOR EACH ROW EXECUTE FUNCTION "change_request_organization"();

CREATE FUNCTION "space_change_requests_organization"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ChangeRequest" SET "organizationId" = NEW."organizationId" WHERE "spaceId" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "space_change_requests_organization" AFTER UPDATE OF "organizationId" ON "Space"
  FOR EACH ROW WHEN (OLD."organizationId" IS DISTINCT FROM NEW."organizationId") EXECUTE FUNCTION "space_change_requests_organization"();

-- CreateIndex
CREATE INDEX "ChangeRequest_organizationId_status_updatedAt_id_idx" ON "ChangeRequest"("organizationId", "status", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "ChangeRequest_organizationId_status_createdAt_id_idx" ON "ChangeRequest"("organizationId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Job_organizationId_kind_createdAt_id_idx" ON "Job"("organizationId", "kind", "createdAt" DESC, "id" DESC);
