-- Issue 36, the rest: the audit log's retention and the sign-in counter's churn.
--
-- Retention (docs/DECISIONS.md "Audit trail"): the server purges entries older than AUDIT_RETENTION_MONTHS once a
-- day through app_internal.audit_purge, the one way to delete from the log. The purge is itself logged: a statement
-- trigger on the log's deletes writes one 'purge' entry with how many entries went and the oldest and newest of them.
alter table app_internal.audit_log drop constraint audit_log_op_check;
alter table app_internal.audit_log add constraint audit_log_op_check check (op in ('insert', 'update', 'delete', 'purge'));

-- Still append-only for everyone; the one exception is a delete run by audit_purge (which marks its transaction
-- with the cut-off while it deletes). Whoever could set that mark by hand could as well drop the trigger.
create or replace function app_internal.audit_log_append_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' and pg_trigger_depth() > 1 then return null; end if;
  if tg_op = 'DELETE' and coalesce(current_setting('app.audit_purge', true), '') <> '' then return null; end if;
  raise exception 'The audit log is append-only: it is written by the audit trigger only.' using errcode = '42501';
end $$;

create or replace function app_internal.audit_purge(older_than timestamptz) returns bigint language plpgsql security definer as $$
declare
  n bigint;
begin
  perform set_config('app.audit_purge', older_than::text, true);
  delete from app_internal.audit_log where "at" < older_than;
  get diagnostics n = row_count;
  perform set_config('app.audit_purge', '', true);
  return n;
end $$;

create or replace function app_internal.audit_log_purged() returns trigger language plpgsql as $$
declare
  n bigint;
  oldest timestamptz;
  newest timestamptz;
  uid text := nullif(current_setting('app.user_id', true), '');
begin
  select count(*), min("at"), max("at") into n, oldest, newest from purged;
  if n = 0 then return null; end if;
  insert into app_internal.audit_log (op, "tableName", "rowId", "userId", "role", "requestId", "after")
  values ('purge', 'audit_log', left(current_setting('app.audit_purge', true), 100),
          case when uid ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then uid::uuid end,
          left(nullif(current_setting('app.role', true), ''), 100), left(nullif(current_setting('app.request_id', true), ''), 100),
          jsonb_build_object('purged', n, 'olderThan', current_setting('app.audit_purge', true), 'oldest', oldest, 'newest', newest));
  return null;
end $$;
create trigger audit_log_purged after delete on app_internal.audit_log referencing old table as purged
  for each statement execute function app_internal.audit_log_purged();

-- A failed sign-in counts in users."numOfFailed", and a right password clears it: neither is anyone's change to the
-- user (the sign-in throttle keeps its own record), so an update's diff leaves that column out with the bookkeeping
-- columns, and an update that changed nothing else writes no entry.
create or replace function app_internal.audit_row() returns trigger language plpgsql security definer as $$
declare
  b jsonb;
  a jsonb;
  rid text;
  uid text := nullif(current_setting('app.user_id', true), '');
  rl text := nullif(current_setting('app.role', true), '');
  caller jsonb;
begin
  -- A data load (the demo seed) is not a change anyone made: its transaction turns the trail off.
  if current_setting('app.audit', true) = 'off' then return null; end if;
  if tg_op = 'UPDATE' then
    -- updatedAt/updatedBy change with every update: they are the log row's own time and user.
    select jsonb_object_agg(n.key, o.value), jsonb_object_agg(n.key, n.value) into b, a
    from jsonb_each(to_jsonb(new)) n join jsonb_each(to_jsonb(old)) o on o.key = n.key
    where n.value is distinct from o.value and n.key <> 'updatedAt' and n.key <> 'updatedBy' and n.key <> 'numOfFailed';
    if a is null then return null; end if;
    rid := new.id::text;
  elsif tg_op = 'INSERT' then
    a := to_jsonb(new);
    rid := new.id::text;
  else
    b := to_jsonb(old);
    rid := old.id::text;
  end if;
  b := app_internal.audit_redact(b);
  a := app_internal.audit_redact(a);
  if uid is null and rl is null then
    caller := app_internal.caller();
    uid := caller->>'x-hasura-user-id';
    rl := caller->>'x-hasura-role';
  end if;
  insert into app_internal.audit_log (op, "tableName", "rowId", "userId", "role", "requestId", "before", "after")
  values (lower(tg_op), tg_table_name, rid,
          case when uid ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then uid::uuid end,
          left(rl, 100), left(nullif(current_setting('app.request_id', true), ''), 100), b, a);
  return null;
end $$;
