-- The writing transaction's ID on each outbox row, so that a subscription can leave out the events
-- committed before it began though dispatched after (events/from-now.ts). Added without a default
-- first so that existing rows are not rewritten (they keep NULL: delivered as before).
ALTER TABLE "OutboxEvent" ADD COLUMN "xid" xid8;
ALTER TABLE "OutboxEvent" ALTER COLUMN "xid" SET DEFAULT pg_current_xact_id();
