-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "adaptiveSchema" TEXT,
ADD COLUMN     "adaptiveSchemaUpdatedAt" TIMESTAMP(3);
