-- Issue 31 §1 (FINANCE.md §7): the ledger. Every finance operation posts balanced journal entries in the
-- same transaction as its document change (server/finance/ledger.ts, the one writer); the rules are the
-- pure functions of src/domain/finance/ledger.ts. Rows are append-only: the finance guard ('log') admits
-- inserts from the finance service only and refuses every update and delete over GraphQL.
-- An entry belongs to one student and company, one Singapore day and one document (its type, id and
-- number as the document showed it when posted). A line moves one account of the student, debit or
-- credit (its entry's day repeated, for reading by day and account); "cash" lines name the payment (or refund) method.

create table journal_entries (
  id uuid primary key default gen_random_uuid(),
  "companyId" uuid not null references companies(id),
  "studentId" uuid not null references users(id),
  day date not null,
  operation text not null check (operation in ('pa_issued', 'pa_edited', 'pa_voided_unpaid', 'pa_withdrawn', 'pa_voided_paid', 'payment_received',
    'receipt_voided', 'credit_note_issued', 'credit_note_voided', 'refund_refunded')),
  "documentType" text not null check ("documentType" in ('payment_advice', 'receipt', 'credit_note', 'refund')),
  "documentId" uuid not null,
  "documentNumber" text constraint "documentNumber_length_max_100" check (char_length("documentNumber") <= 100),
  "createdBy" uuid references users(id)
);

create table journal_lines (
  id uuid primary key default gen_random_uuid(),
  "entryId" uuid not null references journal_entries(id),
  "companyId" uuid not null references companies(id),
  "studentId" uuid not null references users(id),
  day date not null,
  account text not null check (account in ('receivable', 'cash', 'customer_credit', 'deposits_held', 'deposits_billed', 'revenue_deferred', 'revenue_recognised', 'gst_payable')),
  method text constraint "method_length_max_50" check (char_length(method) <= 50),
  debit numeric(12,2) not null default 0 check (debit >= 0),
  credit numeric(12,2) not null default 0 check (credit >= 0),
  constraint journal_lines_one_side check ((debit = 0) <> (credit = 0)),
  constraint journal_lines_cash_method check ((account = 'cash') = (method is not null))
);

-- Checked at commit: every entry's debits equal its credits (an entry's lines are written one by one).
-- enumerations are bounded too (tests/server/security-text-bounds.test.ts: every text column has a length check)
alter table journal_entries add constraint "operation_length_max_50" check (char_length(operation) <= 50),
  add constraint "documentType_length_max_50" check (char_length("documentType") <= 50);
alter table journal_lines add constraint "account_length_max_50" check (char_length(account) <= 50);

create or replace function app_internal.journal_entry_balanced() returns trigger language plpgsql as $$
declare
  e uuid;
  d numeric;
  c numeric;
begin
  if tg_table_name = 'journal_entries' then e := new.id; else e := new."entryId"; end if;
  select coalesce(sum(debit), 0), coalesce(sum(credit), 0) into d, c from journal_lines where "entryId" = e;
  if d <> c or d = 0 then
    raise exception 'Journal entry % is not balanced: debits % ≠ credits %.', e, d, c using errcode = '23514';
  end if;
  return null;
end $$;

create constraint trigger journal_entries_balanced after insert on journal_entries
  deferrable initially deferred for each row execute function app_internal.journal_entry_balanced();
create constraint trigger journal_lines_balanced after insert on journal_lines
  deferrable initially deferred for each row execute function app_internal.journal_entry_balanced();

create trigger journal_entries_guard before insert or update or delete on journal_entries
  for each row execute function app_internal.finance_guard('log');
create trigger journal_lines_guard before insert or update or delete on journal_lines
  for each row execute function app_internal.finance_guard('log');

create index journal_entries_document_idx on journal_entries ("documentType", "documentId");
create index journal_entries_student_idx on journal_entries ("studentId", day);
create index journal_lines_student_account_idx on journal_lines ("studentId", account);
create index journal_lines_entry_idx on journal_lines ("entryId");
create index journal_entries_day_idx on journal_entries (day, "companyId");
create index journal_lines_day_account_idx on journal_lines (day, account, method);

select app_internal.standardize();
