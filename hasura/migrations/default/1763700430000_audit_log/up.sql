-- Issue 36: one audit trail for every business table (in the spirit of PostgreSQL's audit-trigger 91plus and
-- supabase's supa_audit). A generic AFTER row trigger records insert, update and delete: the table, the row's id, the
-- acting user and role, the time, the request id, and the columns before → after (an update keeps only the columns it
-- changed). The writers set the actor per transaction (set_config(..., true)): app.user_id, app.role and
-- app.request_id — our GraphQL engine's mutations, the REST calls and the finance service's financeTransaction. A write
-- with none of them (a real Hasura, the admin secret's run_sql) is attributed from Hasura's own `hasura.user`.
-- The log lives outside public: no GraphQL role can read or write it; the server's history calls read it.
create table app_internal.audit_log (
  id bigint generated always as identity primary key,
  "at" timestamptz not null default now(),
  op text not null check (op in ('insert', 'update', 'delete')),
  "tableName" text not null check (char_length("tableName") <= 63),
  "rowId" text not null check (char_length("rowId") <= 100),
  "userId" uuid,
  "role" text check (char_length("role") <= 100),
  "requestId" text check (char_length("requestId") <= 100),
  "before" jsonb,
  "after" jsonb
);
create index audit_log_row_idx on app_internal.audit_log ("tableName", "rowId", id desc);
create index audit_log_at_idx on app_internal.audit_log ("at" desc, id desc);
create index audit_log_user_idx on app_internal.audit_log ("userId", "at" desc);

-- The redaction list: columns whose values never enter the log, whatever table they are in (password hashes,
-- token and code hashes, secrets, private keys). The tables that hold only such things carry no trigger at all.
create or replace function app_internal.audit_redact(row_json jsonb) returns jsonb language sql immutable strict as $$
  select row_json - array(select k from jsonb_object_keys(row_json) k where k ~* '(password|secret|token|privatekey)|hash$')
$$;
-- Security definer, so a Postgres role without rights on the audit table (a real Hasura's) still records; no SET
-- clause (it would cost a settings save and restore per row): every name is schema-qualified or pg_catalog's, which is
-- searched first. The update's diff is taken before redaction, so only the changed columns are scanned for secrets;
-- converting the rows to jsonb is most of the trigger's cost (bench/audit.ts).
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
    where n.value is distinct from o.value and n.key <> 'updatedAt' and n.key <> 'updatedBy';
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

-- Append-only for everyone, the admin role and the admin secret included: rows come only from the audit trigger
-- (a nested trigger, depth 2); a direct insert, any update, delete or truncate is refused.
create or replace function app_internal.audit_log_append_only() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' and pg_trigger_depth() > 1 then return null; end if;
  raise exception 'The audit log is append-only: it is written by the audit trigger only.' using errcode = '42501';
end $$;
create trigger audit_log_append_only before insert or update or delete or truncate on app_internal.audit_log
  for each statement execute function app_internal.audit_log_append_only();

-- Every public table but those named here (docs/DECISIONS.md, tests/server/audit-trail.test.ts): logs (they are a
-- trail already), the policy's lines (policy_changes logs each save, before → after), secrets and sessions, the mail
-- queue (sign-in codes, message bodies), the ledger (append-only, every line names its document and writer) and the
-- document counters (the issued document's own row records its number).
do $$
declare
  t text;
begin
  for t in
    select c.relname from pg_class c join pg_namespace s on s.oid = c.relnamespace
    where s.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> all(array[
      'payment_advice_logs', 'credit_note_logs', 'refund_logs', 'backup_attendance_logs', 'broadcast_logs', 'email_student_logs',
      'news_logs', 'policy_changes', 'casbin_rule',
      'user_credentials', 'refresh_tokens', 'password_reset_codes', 'signing_keys',
      'outbox', 'journal_entries', 'journal_lines', 'document_counters'])
  loop
    execute format('create trigger audit_row after insert or update or delete on public.%I for each row execute function app_internal.audit_row()', t);
  end loop;
end $$;
