-- Issue 10: who may change roles, and who may change finance documents, checked in the database whoever
-- writes (our GraphQL engine, a real Hasura in front, the REST layer). The caller is the transaction's
-- `hasura.user` setting (JSON of the session variables), which Hasura sets for every mutation and our
-- engine and REST layer set the same way. No setting = a trusted writer: the server's own code, the
-- seed, migrations. The finance service marks its transactions with backoffice.writer = 'finance'.

create or replace function app_internal.caller() returns jsonb language sql stable as $$
  select nullif(current_setting('hasura.user', true), '')::jsonb
$$;

-- The roles a user holds: multipleRoles, or [role] when that list is empty (as at sign-in).
create or replace function app_internal.roles_held(role text, multiple jsonb) returns text[] language sql immutable as $$
  select case when jsonb_typeof(multiple) = 'array' and jsonb_array_length(multiple) > 0
    then array(select jsonb_array_elements_text(multiple) order by 1)
    else array_remove(array[role], null) end
$$;

-- The roles the caller acts with; null for a trusted writer. The admin role (admin secret, or an
-- administrator's token) is taken from the session; otherwise the roles the signed-in user holds now.
create or replace function app_internal.caller_roles() returns text[] language plpgsql stable as $$
declare
  c jsonb := app_internal.caller();
  held text[];
begin
  if c is null then return null; end if;
  if c->>'x-hasura-role' = 'admin' then return array['admin']; end if;
  if c->>'x-hasura-user-id' is not null then
    select app_internal.roles_held(u.role, u."multipleRoles") into held
    from users u where u.id::text = c->>'x-hasura-user-id' and u.status = 'active';
    return coalesce(held, '{}');
  end if;
  return array_remove(array[c->>'x-hasura-role'], null);
end $$;

-- Roles (role, multipleRoles, type) change only by hr and admin, never on one's own account; only admin
-- grants or removes admin. New student/parent/tutor accounts carry their account role and pass.
create or replace function app_internal.users_guard_roles() returns trigger language plpgsql as $$
declare
  actor text[] := app_internal.caller_roles();
  caller_id text := app_internal.caller()->>'x-hasura-user-id';
  after_roles text[] := app_internal.roles_held(new.role, new."multipleRoles");
  before_roles text[] := '{}';
begin
  if actor is null then return new; end if;
  if tg_op = 'INSERT' then
    if after_roles <@ array['student', 'parent', 'tutor'] then return new; end if;
  else
    before_roles := app_internal.roles_held(old.role, old."multipleRoles");
    if before_roles @> after_roles and after_roles @> before_roles and new.role is not distinct from old.role and new.type = old.type then
      return new;
    end if;
  end if;
  if not actor && array['hr', 'admin'] then
    raise exception 'Only HR and administrators can change roles.' using errcode = '42501';
  end if;
  if tg_op = 'UPDATE' and caller_id is not null and new.id::text = caller_id then
    raise exception 'You cannot change the roles of your own account.' using errcode = '42501';
  end if;
  if 'admin' = any(before_roles || after_roles) and not 'admin' = any(actor) then
    raise exception 'Only an administrator can grant or change the admin role.' using errcode = '42501';
  end if;
  return new;
end $$;

create trigger users_guard_roles before insert or update on users
  for each row execute function app_internal.users_guard_roles();

-- Finance documents change only through the finance service (FINANCE.md §1). Other callers that are not
-- admin may only edit the free-text columns named in the trigger's arguments; log tables are append-only
-- for every caller (admin too) and document counters belong to the finance service alone.
create or replace function app_internal.finance_guard() returns trigger language plpgsql as $$
declare
  actor text[];
  kind text := tg_argv[0];
  free text[] := tg_argv[1:];
  changed text[];
begin
  if current_setting('backoffice.writer', true) = 'finance' then return coalesce(new, old); end if;
  actor := app_internal.caller_roles();
  if actor is null then return coalesce(new, old); end if;
  if kind = 'log' then
    if tg_op <> 'INSERT' then raise exception 'Finance logs cannot be changed or deleted.' using errcode = '42501'; end if;
    if 'admin' = any(actor) then return new; end if;
    raise exception 'Finance logs are written by the finance service.' using errcode = '42501';
  end if;
  if kind = 'counter' then
    raise exception 'Document numbers are assigned by the finance service.' using errcode = '42501';
  end if;
  if 'admin' = any(actor) then return coalesce(new, old); end if;
  if tg_op <> 'UPDATE' then
    raise exception 'Finance documents are created and removed through the finance service.' using errcode = '42501';
  end if;
  select array_agg(n.key) into changed
  from jsonb_each(to_jsonb(new)) n
  where n.value is distinct from to_jsonb(old)->n.key and n.key <> all(free || array['updatedAt', 'updatedBy']);
  if changed is not null then
    raise exception 'Only remarks and notes of a finance document can be edited here (not %).', array_to_string(changed, ', ')
      using errcode = '42501';
  end if;
  return new;
end $$;

create trigger payment_advices_guard before insert or update or delete on payment_advices
  for each row execute function app_internal.finance_guard('document', 'remarks', 'notes');
create trigger invoices_guard before insert or update or delete on invoices
  for each row execute function app_internal.finance_guard('document', 'notes', 'reasons');
create trigger credit_notes_guard before insert or update or delete on credit_notes
  for each row execute function app_internal.finance_guard('document', 'reason', 'remarks');
create trigger refunds_guard before insert or update or delete on refunds
  for each row execute function app_internal.finance_guard('document', 'reason');
create trigger invoice_payments_guard before insert or update or delete on invoice_payments
  for each row execute function app_internal.finance_guard('document');
create trigger receipts_guard before insert or update or delete on receipts
  for each row execute function app_internal.finance_guard('document');
create trigger deposits_guard before insert or update or delete on deposits
  for each row execute function app_internal.finance_guard('document');
create trigger credit_note_classes_guard before insert or update or delete on credit_note_classes
  for each row execute function app_internal.finance_guard('document');
create trigger credit_note_fees_guard before insert or update or delete on credit_note_fees
  for each row execute function app_internal.finance_guard('document');
create trigger refund_classes_guard before insert or update or delete on refund_classes
  for each row execute function app_internal.finance_guard('document');
create trigger transfer_bills_guard before insert or update or delete on transfer_bills
  for each row execute function app_internal.finance_guard('document');
create trigger payment_advice_logs_guard before insert or update or delete on payment_advice_logs
  for each row execute function app_internal.finance_guard('log');
create trigger credit_note_logs_guard before insert or update or delete on credit_note_logs
  for each row execute function app_internal.finance_guard('log');
create trigger refund_logs_guard before insert or update or delete on refund_logs
  for each row execute function app_internal.finance_guard('log');
create trigger document_counters_guard before insert or update or delete on document_counters
  for each row execute function app_internal.finance_guard('counter');
