-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "clientAddress" TEXT,
ADD COLUMN     "source" TEXT,
ADD COLUMN     "userAgent" TEXT;

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "action" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorLabel" TEXT,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "targetLabel" TEXT,
    "source" TEXT NOT NULL,
    "clientAddress" TEXT,
    "userAgent" TEXT,
    "payload" JSONB NOT NULL,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_eventId_key" ON "AuditEvent"("eventId");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_occurredAt_id_idx" ON "AuditEvent"("organizationId", "occurredAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_action_occurredAt_id_idx" ON "AuditEvent"("organizationId", "action", "occurredAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_actorId_occurredAt_id_idx" ON "AuditEvent"("organizationId", "actorId", "occurredAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_targetId_occurredAt_id_idx" ON "AuditEvent"("organizationId", "targetId", "occurredAt", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_occurredAt_idx" ON "AuditEvent" USING BRIN ("occurredAt");
