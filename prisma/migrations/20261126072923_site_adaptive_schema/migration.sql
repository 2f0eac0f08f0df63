-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "adaptiveSchema" JSONB,
ADD COLUMN     "adaptiveSchemaUpdatedAt" TIMESTAMP(3);
