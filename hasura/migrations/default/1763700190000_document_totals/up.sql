-- The total of a credit note and of a refund as a column (issue 16): the finance service writes it inside
-- `summary`; lists filter, sort and show it like any amount. Generated, so it can never disagree with the summary.
alter table credit_notes add column total numeric(12,2) generated always as ((summary->>'total')::numeric(12,2)) stored;
alter table refunds add column total numeric(12,2) generated always as ((summary->>'total')::numeric(12,2)) stored;

-- A BEFORE trigger sees a generated column not yet computed: the finance guard must not count it as a change.
drop trigger credit_notes_guard on credit_notes;
create trigger credit_notes_guard before insert or update or delete on credit_notes
  for each row execute function app_internal.finance_guard('document', 'reason', 'remarks', 'total');
drop trigger refunds_guard on refunds;
create trigger refunds_guard before insert or update or delete on refunds
  for each row execute function app_internal.finance_guard('document', 'reason', 'total');

-- the lists sort by it
create index credit_notes_total_idx on credit_notes (total);
create index refunds_total_idx on refunds (total);
