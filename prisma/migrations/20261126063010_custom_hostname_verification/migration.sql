-- DropIndex
DROP INDEX "Site_hostname_key";

-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "hostnameCheckedAt" TIMESTAMP(3),
ADD COLUMN     "hostnameClaimedAt" TIMESTAMP(3),
ADD COLUMN     "hostnameStatus" TEXT,
ADD COLUMN     "hostnameToken" TEXT,
ADD COLUMN     "hostnameVerifiedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "VerifiedHostname" (
    "hostname" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,

    CONSTRAINT "VerifiedHostname_pkey" PRIMARY KEY ("hostname")
);

-- CreateIndex
CREATE UNIQUE INDEX "VerifiedHostname_siteId_key" ON "VerifiedHostname"("siteId");

-- CreateIndex
CREATE INDEX "Site_hostname_idx" ON "Site"("hostname");

-- AddForeignKey
ALTER TABLE "VerifiedHostname" ADD CONSTRAINT "VerifiedHostname_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hostnames claimed before verification existed are claims like any other: each gets its token,
-- and is served once its DNS record proves it (PATCH /v1/custom-hostnames/{hostname}).
UPDATE "Site" SET "hostnameToken" = replace(gen_random_uuid()::text, '-', ''), "hostnameClaimedAt" = now() WHERE "hostname" IS NOT NULL;
