-- Issue 31 §3 (FINANCE.md §1 "Idempotent."): the Idempotency-Key of each money POST/PATCH/PUT, scoped to the
-- caller, method and path, with a hash of the request and, once the handler has answered, the answer itself.
-- The row is inserted before the handler runs, in its own statement: the primary key lets only one of two
-- requests sent at once run; the other waits for the stored answer (server/api/idempotency.ts).
-- Rows older than 24 hours are removed by the next keyed request. Internal (no GraphQL, no length CHECKs).
create table app_internal.idempotency_keys (
  "userId" text not null,
  method text not null,
  path text not null,
  key text not null,
  "requestHash" text not null,
  "statusCode" int,
  "contentType" text,
  body text,
  "createdAt" timestamptz not null default now(),
  primary key ("userId", method, path, key)
);

create index idempotency_keys_created_at on app_internal.idempotency_keys ("createdAt");
