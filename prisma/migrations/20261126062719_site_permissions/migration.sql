-- AlterTable
ALTER TABLE "Site" ALTER COLUMN "defaultLevel" DROP NOT NULL;

-- CreateTable
CREATE TABLE "SitePermission" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "userId" TEXT,
    "teamId" TEXT,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SitePermission_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SitePermission_siteId_createdAt_id_idx" ON "SitePermission"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SitePermission_userId_idx" ON "SitePermission"("userId");

-- CreateIndex
CREATE INDEX "SitePermission_teamId_idx" ON "SitePermission"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "SitePermission_siteId_userId_key" ON "SitePermission"("siteId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "SitePermission_siteId_teamId_key" ON "SitePermission"("siteId", "teamId");

-- AddForeignKey
ALTER TABLE "SitePermission" ADD CONSTRAINT "SitePermission_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SitePermission" ADD CONSTRAINT "SitePermission_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SitePermission" ADD CONSTRAINT "SitePermission_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
