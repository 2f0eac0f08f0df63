-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "visitorAuthFallbackUrl" TEXT,
ADD COLUMN     "visitorAuthLogoutUrl" TEXT;
