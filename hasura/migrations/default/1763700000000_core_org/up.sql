-- Core and organisation: shared helpers, companies, branches, classrooms, reference data.
-- Conventions (DESIGN §3): snake_case plural tables, quoted camelCase columns, uuid ids,
-- "createdAt"/"updatedAt"/"createdBy"/"updatedBy" on every table (added by app_internal.standardize()),
-- soft deletion through status = 'deleted', enumerations as text + CHECK with the spec's values.

create schema if not exists app_internal;

-- Keeps "updatedAt" current on every update.
create or replace function app_internal.set_updated_at() returns trigger language plpgsql as $$
begin
  new."updatedAt" := now();
  return new;
end $$;

-- Tables holding the back end's own secrets/state keep exactly their own shapes.
create or replace function app_internal.is_backend_table(t text) returns boolean language sql immutable as $$
  select t in ('casbin_rule', 'policy_changes', 'user_credentials', 'refresh_tokens', 'password_reset_codes',
               'signing_keys', 'outbox', 'media_objects', 'document_counters')
$$;

-- Run at the end of each migration: for every spec table of the public schema, adds the audit
-- columns when missing, the updatedAt trigger, and the standard indexes: "updatedAt" desc (the
-- default sort of every list), status, every single-column foreign key, lower(name).
create or replace function app_internal.standardize() returns void language plpgsql as $$
declare
  t record;
  fk record;
begin
  perform set_config('client_min_messages', 'warning', true);
  for t in
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and not app_internal.is_backend_table(c.relname)
  loop
    execute format('alter table public.%I add column if not exists "createdAt" timestamptz not null default now()', t.name);
    execute format('alter table public.%I add column if not exists "updatedAt" timestamptz not null default now()', t.name);
    execute format('alter table public.%I add column if not exists "createdBy" uuid', t.name);
    execute format('alter table public.%I add column if not exists "updatedBy" uuid', t.name);
    if not exists (select 1 from pg_trigger where tgrelid = format('public.%I', t.name)::regclass and tgname = 'set_updated_at') then
      execute format('create trigger set_updated_at before update on public.%I for each row execute function app_internal.set_updated_at()', t.name);
    end if;
    execute format('create index if not exists %I on public.%I ("updatedAt" desc)', left(t.name, 40) || '_updated_at_idx', t.name);
    if exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = t.name and column_name = 'status') then
      execute format('create index if not exists %I on public.%I (status, "updatedAt" desc)', left(t.name, 40) || '_status_idx', t.name);
    end if;
    if exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = t.name and column_name = 'name') then
      execute format('create index if not exists %I on public.%I (lower(name))', left(t.name, 40) || '_lower_name_idx', t.name);
    end if;
    -- foreign keys not already leading an index
    for fk in
      select a.attname as col from pg_constraint k
      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
      where k.conrelid = format('public.%I', t.name)::regclass and k.contype = 'f' and array_length(k.conkey, 1) = 1
        and not exists (select 1 from pg_index i where i.indrelid = k.conrelid and i.indkey[0] = k.conkey[1])
    loop
      execute format('create index if not exists %I on public.%I (%I)', left(t.name || '_' || fk.col, 55) || '_idx', t.name, fk.col);
    end loop;
  end loop;
end $$;

create table companies (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "shortName" text,
  address text,
  uen text,
  "hasGstNo" boolean not null default false,
  "gstRefNo" text,
  "telNo" text,
  "colorCode" text,
  "paNotes" text,
  "logoUrl" text,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table branches (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  abbreviation text,
  address text,
  city text,
  country text,
  "postalCode" text,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table classrooms (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  capacity int not null default 20 check (capacity >= 0),
  "branchId" uuid not null references branches(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table banks (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  code text,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table schools (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  address text,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table curriculums (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  abbreviation text not null,
  "nameOfReport" text,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table levels (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  abbreviation text not null,
  "order" int not null default 0,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table curriculums_levels (
  id uuid primary key default gen_random_uuid(),
  "curriculumId" uuid not null references curriculums(id),
  "levelId" uuid not null references levels(id),
  status text not null default 'active' check (status in ('active', 'deleted')),
  unique ("curriculumId", "levelId")
);

create table subjects (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  abbreviation text,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

-- Programme categories: code regular/double_lesson/special/others, labels R/DB/S/O.
create table categories (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  code text not null check (code in ('regular', 'double_lesson', 'special', 'others')),
  abbreviation text check (abbreviation in ('R', 'DB', 'S', 'O')),
  "sortOrder" int not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

-- Programme types; code is the class-type code (WLWD, WLWE, DBWD, DBWE) where one applies.
create table program_types (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  code text check (code in ('WLWD', 'WLWE', 'DBWD', 'DBWE')),
  abbreviation text,
  "fullName" text,
  "shortName" text,
  "categoryId" uuid references categories(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

-- Settings: key/type/value (jsonb) tree; e.g. key 'waivePeriod', type 'fee', value {startDate, endDate}.
create table system_settings (
  id uuid primary key default gen_random_uuid(),
  key text not null,
  type text not null,
  value jsonb,
  "companyId" uuid references companies(id),
  "parentId" uuid references system_settings(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index system_settings_type_key_idx on system_settings (type, key);

create table holidays (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text,
  date date not null,
  "startTime" timestamptz,
  "endTime" timestamptz,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index holidays_date_idx on holidays (date);

create unique index curriculums_company_abbreviation_key on curriculums ("companyId", abbreviation) where status <> 'deleted';
create unique index levels_company_abbreviation_key on levels ("companyId", abbreviation) where status <> 'deleted';

select app_internal.standardize();
