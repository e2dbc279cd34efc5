-- A message the transport refused waits before its next try (growing with each refusal), so a relay that
-- is down is not hammered every second and newer messages are not stuck behind it.
alter table outbox add column "nextAttemptAt" timestamptz;
drop index outbox_pending_idx;
create index outbox_pending_idx on outbox (status, "createdAt") where status = 'pending';
