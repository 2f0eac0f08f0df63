-- CreateTable
CREATE TABLE "SamlProvider" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "entityId" TEXT,
    "certificate" TEXT,
    "ssoUrl" TEXT,
    "defaultTeamId" TEXT,
    "defaultRole" "Role",
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SamlProvider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SamlRequest" (
    "id" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SamlRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SamlAssertion" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SamlAssertion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SamlProvider_organizationId_createdAt_id_idx" ON "SamlProvider"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SamlRequest_expiresAt_idx" ON "SamlRequest"("expiresAt");

-- CreateIndex
CREATE INDEX "SamlAssertion_expiresAt_idx" ON "SamlAssertion"("expiresAt");

-- AddForeignKey
ALTER TABLE "SamlProvider" ADD CONSTRAINT "SamlProvider_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
