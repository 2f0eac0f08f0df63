-- CreateIndex
CREATE INDEX "ChangeRequest_spaceId_status_updatedAt_number_idx" ON "ChangeRequest"("spaceId", "status", "updatedAt", "number");
