-- A credential never crosses organizations: a token one organization vouched for (its SAML
-- sign-in, its invitation link) reaches that organization only, and an account that has held a
-- credential of wider reach is "claimed": no organization's link gives it a credential any more.
ALTER TABLE "ApiToken" ADD COLUMN     "organizationId" TEXT;

ALTER TABLE "User" ADD COLUMN     "claimedAt" TIMESTAMP(3);

CREATE INDEX "ApiToken_organizationId_idx" ON "ApiToken"("organizationId");

ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tokens of a SAML sign-in were the only ones an organization vouched for: they now reach it alone.
UPDATE "ApiToken" SET "organizationId" = "ssoOrganizationId"
WHERE "ssoOrganizationId" IS NOT NULL AND EXISTS (SELECT 1 FROM "Organization" o WHERE o."id" = "ApiToken"."ssoOrganizationId");

-- Claimed: the account holds a token of wider reach, or joined an organization other than through
-- its SAML sign-in (made by an operator, or accepted an invitation; a member who revoked every
-- token of theirs stays claimed).
UPDATE "User" u SET "claimedAt" = u."createdAt"
WHERE EXISTS (SELECT 1 FROM "ApiToken" t WHERE t."userId" = u."id" AND t."organizationId" IS NULL)
   OR EXISTS (SELECT 1 FROM "Member" m WHERE m."userId" = u."id" AND NOT m."sso");
