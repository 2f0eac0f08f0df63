-- The failed operation's reason, recorded with its end (installationStatus read it from the job,
-- whose failure is written a moment later: git/info could say failure with status active).
ALTER TABLE "GitSync" ADD COLUMN "operationErrorCode" TEXT;

UPDATE "GitSync" s SET "operationErrorCode" = j."errorCode"
FROM "Job" j
WHERE j."id" = s."operationJobId" AND s."operationState" IN ('failure', 'timeout');
