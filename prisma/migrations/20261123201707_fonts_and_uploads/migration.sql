-- CreateTable
CREATE TABLE "StorageUpload" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "blobKey" TEXT,
    "uploadedAt" TIMESTAMP(3),
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StorageUpload_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomFont" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "fontFamily" TEXT NOT NULL,
    "faces" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomFont_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StorageUpload_organizationId_idx" ON "StorageUpload"("organizationId");

-- CreateIndex
CREATE INDEX "CustomFont_organizationId_createdAt_id_idx" ON "CustomFont"("organizationId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "StorageUpload" ADD CONSTRAINT "StorageUpload_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomFont" ADD CONSTRAINT "CustomFont_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
