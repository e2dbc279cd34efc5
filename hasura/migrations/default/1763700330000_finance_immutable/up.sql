-- Issue 31 §4, FINANCE.md §1 "Immutable for every role, admin included": the finance guard no longer lets the admin
-- role through. Whoever is recorded as the caller (`hasura.user`: our GraphQL engine with an administrator's token or
-- the admin secret, a real Hasura, a REST route) gets the same answer: finance documents are never inserted or deleted,
-- only their free-text columns (the trigger's arguments) are updated, and each such edit writes a log row in the
-- document's log table; logs and ledger rows (kind 'log') and document counters take nothing. Only the finance
-- service's transaction (backoffice.writer = 'finance') and trusted writers (no caller: the server's own code, seeds,
-- migrations) pass. The admin secret's raw SQL (run_sql) is the one break-glass door, and every call is logged below.

-- The free-text edit's log row, in the document's own log table (type update, the changed columns before and after,
-- createdBy = the caller). It runs as the finance writer for the length of that one insert (so the log guard admits
-- it), then puts the previous setting back; security definer, so a Postgres role without rights on the log tables
-- (a real Hasura's) can still record it.
create or replace function app_internal.log_finance_free_text(doc text, before_row jsonb, after_row jsonb, edited text[])
returns void language plpgsql security definer set search_path = public, pg_temp as $$
declare
  previous text := current_setting('backoffice.writer', true);
  by_id uuid;
  b jsonb;
  a jsonb;
begin
  select u.id into by_id from users u where u.id::text = app_internal.caller()->>'x-hasura-user-id';
  select jsonb_object_agg(k, before_row->k), jsonb_object_agg(k, after_row->k) into b, a from unnest(edited) k;
  perform set_config('backoffice.writer', 'finance', true);
  case doc
    when 'payment_advices' then
      insert into payment_advice_logs ("paymentAdviceId", type, "valueBefore", "valueAfter", "createdBy", "updatedBy")
      values ((after_row->>'id')::uuid, 'update', jsonb_build_object('paymentAdvice', b), jsonb_build_object('paymentAdvice', a), by_id, by_id);
    when 'invoices' then
      -- An invoice has no log of its own: its PA's log records it (the invoice follows its PA, FINANCE.md §4).
      if after_row->>'paymentAdviceId' is null then
        raise exception 'This invoice has no payment advice whose log could record the change.' using errcode = '42501';
      end if;
      insert into payment_advice_logs ("paymentAdviceId", type, "valueBefore", "valueAfter", "createdBy", "updatedBy")
      values ((after_row->>'paymentAdviceId')::uuid, 'update',
              jsonb_build_object('invoice', b || jsonb_build_object('name', before_row->'name')),
              jsonb_build_object('invoice', a || jsonb_build_object('name', after_row->'name')), by_id, by_id);
    when 'credit_notes' then
      insert into credit_note_logs ("creditNoteId", type, "valueBefore", "valueAfter", "createdBy", "updatedBy")
      values ((after_row->>'id')::uuid, 'update', b, a, by_id, by_id);
    when 'refunds' then
      insert into refund_logs ("refundId", type, "valueBefore", "valueAfter", "createdBy", "updatedBy")
      values ((after_row->>'id')::uuid, 'update', b, a, by_id, by_id);
    else
      raise exception 'Finance documents of % have no log for free-text edits.', doc using errcode = '42501';
  end case;
  perform set_config('backoffice.writer', coalesce(previous, ''), true);
end $$;
revoke all on function app_internal.log_finance_free_text(text, jsonb, jsonb, text[]) from public;

create or replace function app_internal.finance_guard() returns trigger language plpgsql as $$
declare
  kind text := tg_argv[0];
  free text[] := tg_argv[1:];
  generated text[];
  changed text[];
begin
  if current_setting('backoffice.writer', true) = 'finance' then return coalesce(new, old); end if;
  if app_internal.caller_roles() is null then return coalesce(new, old); end if;
  -- From here on the caller is a user or the admin role: the same answer for every role.
  if kind = 'log' then
    if tg_op <> 'INSERT' then raise exception 'Finance logs and ledger entries cannot be changed or deleted.' using errcode = '42501'; end if;
    raise exception 'Finance logs and ledger entries are written by the finance service only.' using errcode = '42501';
  end if;
  if kind = 'counter' then
    raise exception 'Document numbers are assigned by the finance service.' using errcode = '42501';
  end if;
  if tg_op <> 'UPDATE' then
    raise exception 'Finance documents, payments and receipts are created and removed only through the finance screens.' using errcode = '42501';
  end if;
  -- A BEFORE trigger sees generated columns not yet computed: they are no caller's change.
  select coalesce(array_agg(a.attname::text), '{}') into generated
  from pg_attribute a where a.attrelid = tg_relid and a.attnum > 0 and a.attgenerated <> '';
  select array_agg(n.key) into changed
  from jsonb_each(to_jsonb(new)) n
  where n.value is distinct from to_jsonb(old)->n.key and n.key <> all(free || generated || array['updatedAt', 'updatedBy']);
  if changed is not null then
    raise exception 'Only remarks and notes of a finance document can be edited here (not %); amounts, numbers and statuses change only through the finance screens.', array_to_string(changed, ', ')
      using errcode = '42501';
  end if;
  return new;
end $$;

-- The log row of a free-text edit, after the row passed its own checks (a refused edit — notes over their length —
-- is refused for its own reason and logs nothing). By then the guard has let only free-text columns change.
create or replace function app_internal.finance_free_text_logged() returns trigger language plpgsql as $$
declare
  edited text[];
begin
  if current_setting('backoffice.writer', true) = 'finance' or app_internal.caller_roles() is null then return null; end if;
  select array_agg(n.key order by n.key) into edited
  from jsonb_each(to_jsonb(new)) n
  where n.value is distinct from to_jsonb(old)->n.key and n.key <> all(array['updatedAt', 'updatedBy']);
  if edited is not null then
    perform app_internal.log_finance_free_text(tg_table_name, to_jsonb(old), to_jsonb(new), edited);
  end if;
  return null;
end $$;

create trigger payment_advices_free_text_log after update on payment_advices
  for each row execute function app_internal.finance_free_text_logged();
create trigger invoices_free_text_log after update on invoices
  for each row execute function app_internal.finance_free_text_logged();
create trigger credit_notes_free_text_log after update on credit_notes
  for each row execute function app_internal.finance_free_text_logged();
create trigger refunds_free_text_log after update on refunds
  for each row execute function app_internal.finance_free_text_logged();

-- The break-glass door: every run_sql call of the admin secret, written before the SQL runs (in its own statement,
-- so a call that fails or rolls back is still recorded). Bounded: the first 20,000 characters of the SQL and its
-- full length. Append-only for everyone but a run_sql that drops the trigger — which is itself recorded first.
create table app_internal.run_sql_log (
  id bigint generated always as identity primary key,
  "at" timestamptz not null default now(),
  interface text not null check (char_length(interface) <= 20),
  "sql" text not null check (char_length("sql") <= 20000),
  "sqlLength" int not null check ("sqlLength" >= 0),
  "readOnly" boolean not null default false,
  "clientIp" text check (char_length("clientIp") <= 100),
  "userAgent" text check (char_length("userAgent") <= 500)
);
create index run_sql_log_at_idx on app_internal.run_sql_log ("at" desc);

create or replace function app_internal.run_sql_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'The run_sql log is append-only.' using errcode = '42501';
end $$;
create trigger run_sql_log_append_only before update or delete on app_internal.run_sql_log
  for each row execute function app_internal.run_sql_log_append_only();
create trigger run_sql_log_no_truncate before truncate on app_internal.run_sql_log
  for each statement execute function app_internal.run_sql_log_append_only();
