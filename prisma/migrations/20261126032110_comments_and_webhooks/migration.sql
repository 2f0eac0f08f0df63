-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- AlterTable
ALTER TABLE "ChangeRequest" ADD COLUMN     "openCommentCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
-- No API wrote comments before this migration: rows made otherwise get an empty body and their
-- space's revision.
ALTER TABLE "Comment" ADD COLUMN     "body" JSONB NOT NULL DEFAULT '{"object":"document","data":{},"nodes":[]}',
ADD COLUMN     "editedAt" TIMESTAMP(3),
ADD COLUMN     "nodeKey" TEXT,
ADD COLUMN     "pageId" TEXT,
ADD COLUMN     "replyCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "resolvedAt" TIMESTAMP(3),
ADD COLUMN     "resolvedById" TEXT,
ADD COLUMN     "revisionId" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "tableCell" JSONB,
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "CommentReply" (
    "id" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CommentReply_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CommentReaction" (
    "id" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "replyId" TEXT,
    "userId" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CommentReaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CommentMention" (
    "postId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "notifiedAt" TIMESTAMP(3),
    "skipped" TEXT,

    CONSTRAINT "CommentMention_pkey" PRIMARY KEY ("postId","userId")
);

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "active" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" TIMESTAMP(3),
    "failingSince" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "endpointId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),
    "lastStatusCode" INTEGER,
    "lastLatencyMs" INTEGER,
    "lastError" TEXT,
    "redeliveryOf" TEXT,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "statusCode" INTEGER,
    "latencyMs" INTEGER NOT NULL,
    "error" TEXT,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CommentReply_commentId_createdAt_id_idx" ON "CommentReply"("commentId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CommentReaction_commentId_replyId_idx" ON "CommentReaction"("commentId", "replyId");

-- CreateIndex
CREATE INDEX "CommentMention_commentId_idx" ON "CommentMention"("commentId");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_organizationId_createdAt_id_idx" ON "WebhookEndpoint"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_seq_key" ON "WebhookDelivery"("seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_status_seq_idx" ON "WebhookDelivery"("endpointId", "status", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_createdAt_id_idx" ON "WebhookDelivery"("endpointId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_attempt_idx" ON "WebhookAttempt"("deliveryId", "attempt");

-- CreateIndex
CREATE INDEX "Comment_spaceId_changeRequestId_createdAt_id_idx" ON "Comment"("spaceId", "changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_changeRequestId_createdAt_id_idx" ON "Comment"("changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_spaceId_pageId_idx" ON "Comment"("spaceId", "pageId");

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentReply" ADD CONSTRAINT "CommentReply_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentReply" ADD CONSTRAINT "CommentReply_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentReaction" ADD CONSTRAINT "CommentReaction_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentMention" ADD CONSTRAINT "CommentMention_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

UPDATE "Comment" c SET "revisionId" = s."revisionId" FROM "Space" s WHERE s."id" = c."spaceId" AND c."revisionId" = '';
ALTER TABLE "Comment" ALTER COLUMN "body" DROP DEFAULT, ALTER COLUMN "revisionId" DROP DEFAULT;

-- Counters (quire_add_counter: *_member_counters). A space's open comments are those on its own
-- content, as GET /spaces/{id}/comments lists them; a change request's, those made in it.
DROP TRIGGER "Comment_count_openCommentCount_Space_insert" ON "Comment";
DROP TRIGGER "Comment_count_openCommentCount_Space_delete" ON "Comment";
DROP TRIGGER "Comment_count_openCommentCount_Space_update" ON "Comment";
SELECT quire_add_counter('Comment', 'Space', 'openCommentCount', 'spaceId',
  '{row}."status" = ''open'' AND {row}."changeRequestId" IS NULL', '"spaceId", "status", "changeRequestId"');
SELECT quire_add_counter('Comment', 'ChangeRequest', 'openCommentCount', 'changeRequestId',
  '{row}."status" = ''open''', '"changeRequestId", "status"');
SELECT quire_add_counter('CommentReply', 'Comment', 'replyCount', 'commentId', 'true', '"commentId"');

UPDATE "Space" s SET "openCommentCount" =
  (SELECT count(*) FROM "Comment" k WHERE k."spaceId" = s."id" AND k."status" = 'open' AND k."changeRequestId" IS NULL);
UPDATE "ChangeRequest" r SET "openCommentCount" = (SELECT count(*) FROM "Comment" k WHERE k."changeRequestId" = r."id" AND k."status" = 'open')
  WHERE EXISTS (SELECT 1 FROM "Comment" k WHERE k."changeRequestId" = r."id");

-- One reaction per user, emoji and post (the comment itself: replyId null).
CREATE UNIQUE INDEX "CommentReaction_unique_idx" ON "CommentReaction"("commentId", COALESCE("replyId", ''), "userId", "emoji");
