-- Issue 39 §3: overdue reminders. A PA's log gains the type 'reminder' (each reminder e-mail is logged on its PA).
-- One row per PA and schedule step (days after the due date): the unique key makes the daily job send each step
-- once however often it runs. 'sent' = e-mailed; 'passed' = the step fell due together with a later one (the job
-- was not running, or the schedule changed) and only the latest was sent; 'no_email' = the parent has no e-mail.
alter table payment_advice_logs drop constraint payment_advice_logs_type_check,
  add constraint payment_advice_logs_type_check check (type in ('create', 'update', 'change_status', 'duplicate', 'reminder'));

create table payment_reminders (
  id uuid primary key default gen_random_uuid(),
  "paymentAdviceId" uuid not null references payment_advices(id),
  step integer not null check (step > 0 and step <= 365),
  outcome text not null constraint "outcome_length_max_20" check (char_length(outcome) <= 20) check (outcome in ('sent', 'passed', 'no_email')),
  recipient text constraint "recipient_length_max_320" check (char_length(recipient) <= 320),
  constraint payment_reminders_step_key unique ("paymentAdviceId", step)
);

-- A PA staff hold back from reminders (the Hold toggle of /finance/reminders): one row while held.
create table payment_reminder_holds (
  id uuid primary key default gen_random_uuid(),
  "paymentAdviceId" uuid not null references payment_advices(id),
  constraint payment_reminder_holds_pa_key unique ("paymentAdviceId")
);

create trigger audit_row after insert or update or delete on public.payment_reminders for each row execute function app_internal.audit_row();
create trigger audit_row after insert or update or delete on public.payment_reminder_holds for each row execute function app_internal.audit_row();
select app_internal.standardize();
