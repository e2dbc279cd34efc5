-- The back end's own tables (not tracked in the GraphQL metadata): access-policy rules,
-- credentials and tokens, signing keys, outbox, media objects, document counters.

create table casbin_rule (
  id serial primary key,
  ptype text not null,
  v0 text,
  v1 text,
  v2 text,
  v3 text,
  v4 text,
  v5 text
);
create index casbin_rule_ptype_idx on casbin_rule (ptype, v0, v1);

create table policy_changes (
  id uuid primary key default gen_random_uuid(),
  "changedBy" uuid references users(id),
  "changedAt" timestamptz default now(),
  before text not null,
  after text not null
);
create index policy_changes_changed_by_idx on policy_changes ("changedBy");
create index policy_changes_changed_at_idx on policy_changes ("changedAt" desc);

create table user_credentials (
  "userId" uuid primary key references users(id) on delete cascade,
  "passwordHash" text not null,
  "mustChangePassword" boolean not null default false,
  "passwordChangedAt" timestamptz
);

create table refresh_tokens (
  id uuid primary key default gen_random_uuid(),
  "userId" uuid not null references users(id),
  "tokenHash" text not null unique,
  "familyId" uuid not null,
  "usedAt" timestamptz,
  "revokedAt" timestamptz,
  "expiresAt" timestamptz not null,
  "createdAt" timestamptz default now()
);
create index refresh_tokens_user_idx on refresh_tokens ("userId");
create index refresh_tokens_family_idx on refresh_tokens ("familyId");

create table password_reset_codes (
  id uuid primary key default gen_random_uuid(),
  "userId" uuid not null references users(id),
  "codeHash" text not null,
  "expiresAt" timestamptz not null,
  attempts int not null default 0,
  "usedAt" timestamptz,
  "createdAt" timestamptz default now()
);
create index password_reset_codes_user_idx on password_reset_codes ("userId");

create table signing_keys (
  kid text primary key,
  alg text not null,
  "publicJwk" jsonb not null,
  "privateJwk" jsonb not null,
  "createdAt" timestamptz default now()
);

create table outbox (
  id uuid primary key default gen_random_uuid(),
  channel text check (channel in ('email', 'sms', 'notification')),
  recipient text not null,
  subject text,
  body text,
  payload jsonb,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts int default 0,
  "createdAt" timestamptz default now(),
  "sentAt" timestamptz
);
create index outbox_pending_idx on outbox (status, "createdAt");

create table media_objects (
  id uuid primary key default gen_random_uuid(),
  key text not null unique,
  "contentType" text,
  size bigint,
  "createdBy" uuid,
  "createdAt" timestamptz default now()
);

create table document_counters (
  "companyId" uuid references companies(id),
  year int,
  "documentType" text check ("documentType" in ('payment_advice', 'invoice', 'receipt', 'credit_note', 'refund', 'deposit')),
  "lastNumber" int not null default 0,
  primary key ("companyId", year, "documentType")
);
