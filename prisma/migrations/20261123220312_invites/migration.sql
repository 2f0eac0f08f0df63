-- CreateTable
CREATE TABLE "MemberInvite" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role",
    "sso" BOOLEAN NOT NULL DEFAULT false,
    "digest" TEXT NOT NULL,
    "invitedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MemberInvite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LinkInvite" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "role" "Role",
    "spaceId" TEXT,
    "collectionId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LinkInvite_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "MemberInvite_digest_key" ON "MemberInvite"("digest");

-- CreateIndex
CREATE INDEX "MemberInvite_organizationId_createdAt_id_idx" ON "MemberInvite"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "MemberInvite_organizationId_userId_key" ON "MemberInvite"("organizationId", "userId");

-- CreateIndex
CREATE INDEX "LinkInvite_organizationId_createdAt_id_idx" ON "LinkInvite"("organizationId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "MemberInvite" ADD CONSTRAINT "MemberInvite_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemberInvite" ADD CONSTRAINT "MemberInvite_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkInvite" ADD CONSTRAINT "LinkInvite_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkInvite" ADD CONSTRAINT "LinkInvite_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkInvite" ADD CONSTRAINT "LinkInvite_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "Collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Deleting a space or collection cascades to its invites without reading every invite.
CREATE INDEX "LinkInvite_spaceId_idx" ON "LinkInvite"("spaceId") WHERE "spaceId" IS NOT NULL;
CREATE INDEX "LinkInvite_collectionId_idx" ON "LinkInvite"("collectionId") WHERE "collectionId" IS NOT NULL;
CREATE INDEX "MemberInvite_userId_idx" ON "MemberInvite"("userId");
