-- Issue 35: PayNow on payment advices, and bank statements matched to them.

-- The UEN a company is paid into by PayNow when it is not the company's own UEN (blank: the company's UEN).
alter table companies add column "payNowUen" text constraint "payNowUen_length_max_20" check (char_length("payNowUen") <= 20);

-- How a bank's statement export names its columns, remembered per bank for the next import.
create table bank_statement_mappings (
  id uuid primary key default gen_random_uuid(),
  bank text not null constraint "bank_length_max_100" check (char_length(bank) <= 100),
  "dateColumn" text not null constraint "dateColumn_length_max_200" check (char_length("dateColumn") <= 200),
  "descriptionColumn" text constraint "descriptionColumn_length_max_200" check (char_length("descriptionColumn") <= 200),
  "referenceColumn" text constraint "referenceColumn_length_max_200" check (char_length("referenceColumn") <= 200),
  "creditColumn" text not null constraint "creditColumn_length_max_200" check (char_length("creditColumn") <= 200)
);
create unique index bank_statement_mappings_bank_key on bank_statement_mappings (lower(bank));

-- One credit line of an imported statement. "lineKey" identifies the line whatever file it came in (bank, day,
-- texts, amount and which repeat of an identical line it is): importing a file again adds nothing. A line is
-- 'open' until a payment is recorded for it ('recorded', with its receipt), at most once.
create table bank_statement_lines (
  id uuid primary key default gen_random_uuid(),
  "companyId" uuid not null references companies(id),
  bank text not null constraint "bank_length_max_100" check (char_length(bank) <= 100),
  "fileName" text constraint "fileName_length_max_200" check (char_length("fileName") <= 200),
  "lineKey" text not null constraint "lineKey_length_max_100" check (char_length("lineKey") <= 100),
  "lineDate" date not null,
  description text constraint "description_length_max_5000" check (char_length(description) <= 5000),
  reference text constraint "reference_length_max_500" check (char_length(reference) <= 500),
  amount numeric(12,2) not null check (amount > 0),
  "lineStatus" text not null default 'open' constraint "lineStatus_length_max_50" check (char_length("lineStatus") <= 50)
    check ("lineStatus" in ('open', 'recorded')),
  "paymentAdviceId" uuid references payment_advices(id),
  "receiptId" uuid references receipts(id),
  constraint bank_statement_lines_recorded check (("lineStatus" = 'recorded') = ("receiptId" is not null)),
  constraint bank_statement_lines_key unique ("companyId", "lineKey")
);
-- Lines change only through the reconciliation calls (a payment rides on them): GraphQL writes are refused, admin's too.
create trigger bank_statement_lines_guard before insert or update or delete on bank_statement_lines
  for each row execute function app_internal.finance_guard('document');
create index bank_statement_lines_open_idx on bank_statement_lines ("companyId", "lineStatus", "lineDate");

select app_internal.standardize();
