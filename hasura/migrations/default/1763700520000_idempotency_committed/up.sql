-- Issue 31 (idempotency after a crash): the money transaction itself marks its key as committed, with the answer
-- its result makes, so a key whose money was written is never taken for abandoned. Before, the answer was stored
-- only after the commit: a server killed in between left a claim with no answer, released after two minutes, and
-- a retry recorded the payment twice. Internal table (no GraphQL, no length CHECKs).
alter table app_internal.idempotency_keys
  add column "committedAt" timestamptz,
  add column "committedStatus" int,
  add column "committedBody" text;
