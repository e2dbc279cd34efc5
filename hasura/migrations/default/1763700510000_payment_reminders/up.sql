-- Issue 39 §3: overdue reminders (each one is also logged on its PA, an 'update' row whose valueAfter is the reminder:
-- the log's types are the spec's). One row per PA and schedule step (days after the due date): the unique key makes the daily job send each step
-- once however often it runs. 'sent' = e-mailed; 'passed' = the step fell due together with a later one (the job
-- was not running, or the schedule changed) and only the latest was sent; 'no_email' = the parent has no e-mail.
create table payment_reminders (
  id uuid primary key default gen_random_uuid(),
  "paymentAdviceId" uuid not null references payment_advices(id),
  step integer not null check (step > 0 and step <= 365),
  outcome text not null constraint "outcome_length_max_20" check (char_length(outcome) <= 20) check (outcome in ('sent', 'passed', 'no_email')),
  recipient text constraint "recipient_length_max_320" check (char_length(recipient) <= 320),
  status text not null default 'active' constraint "status_length_max_20" check (char_length(status) <= 20) check (status in ('active', 'deleted')),
  constraint payment_reminders_step_key unique ("paymentAdviceId", step)
);

-- A PA staff hold back from reminders (the Hold toggle of /finance/reminders): its row is active while held,
-- deleted (soft, as every business table) once released.
create table payment_reminder_holds (
  id uuid primary key default gen_random_uuid(),
  "paymentAdviceId" uuid not null references payment_advices(id),
  status text not null default 'active' constraint "status_length_max_20" check (char_length(status) <= 20) check (status in ('active', 'deleted')),
  constraint payment_reminder_holds_pa_key unique ("paymentAdviceId")
);

create trigger audit_row after insert or update or delete on public.payment_reminders for each row execute function app_internal.audit_row();
create trigger audit_row after insert or update or delete on public.payment_reminder_holds for each row execute function app_internal.audit_row();
select app_internal.standardize();
