-- Issue 31 (FINANCE.md §7): revenue recognised in the ledger. A recognition entry moves a PA's revenue from
-- revenue_deferred to revenue_recognised as its lessons are delivered and its fees fall due (or back, when a
-- credit, a void or an edit lowers what is recognised): operation 'revenue_recognised', one entry per PA and
-- run, posted by the finance service (server/finance/ledger.ts).
alter table journal_entries drop constraint journal_entries_operation_check;
alter table journal_entries add constraint journal_entries_operation_check check (operation in ('pa_issued', 'pa_edited', 'pa_voided_unpaid', 'pa_withdrawn',
  'pa_voided_paid', 'payment_received', 'receipt_voided', 'credit_note_issued', 'credit_note_voided', 'refund_refunded', 'revenue_recognised'));
-- every finance operation brings its student's recognition up to date: the student's PAs, found by student
create index if not exists payment_advices_student_idx on payment_advices ("studentId");
