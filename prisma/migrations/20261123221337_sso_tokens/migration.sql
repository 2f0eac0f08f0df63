-- Tokens issued by an organization's SAML sign-in say so: the SSO enforcement reads it.
ALTER TABLE "ApiToken" ADD COLUMN "ssoOrganizationId" TEXT;
