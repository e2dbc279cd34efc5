-- Finance: discounts, pricing, payment advices, invoices (with partial payments), receipts,
-- deposits, credit notes, refunds, transfer bills, and the PA / credit note / refund logs.
-- Issued documents carry a document number (name) unique per company; they are never hard-deleted.

create table discounts (
  id uuid primary key default gen_random_uuid(),
  code text,
  name text not null,
  type text check (type in ('referral_discount', 'sibling_discount', 'we_chat', 'power_pack', 'exclusive_principal',
    'full_annual_payment', 'semi_annual_payment', 'off_subsequence_subject', 'super_early_bird_sign_up', 'early_bird_sign_up', 'make_the_switch')),
  amount numeric(12,2) not null default 0,
  unit text not null default 'amount' check (unit in ('amount', 'percent')),
  "startDate" date,
  "endDate" date,
  description text,
  "order" int not null default 0,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create index discounts_code_idx on discounts (lower(code));
create index discounts_company_dates_idx on discounts ("companyId", status, "startDate", "endDate");

create table academic_program_type_pricings (
  id uuid primary key default gen_random_uuid(),
  "academicCalendarId" uuid not null references academic_calendars(id),
  "programTypeId" uuid not null references program_types(id),
  "companyId" uuid not null references companies(id),
  "pricePerLesson" numeric(12,2) not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create unique index academic_program_type_pricings_key on academic_program_type_pricings ("academicCalendarId", "programTypeId", "companyId") where status <> 'deleted';

create table special_class_pricings (
  id uuid primary key default gen_random_uuid(),
  "companyId" uuid references companies(id),
  "programId" uuid references programs(id),
  "classId" uuid references classes(id),
  "studentType" text,
  "pricePerStudent" numeric(12,2) not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table payment_advices (
  id uuid primary key default gen_random_uuid(),
  name text,
  "paymentStatus" text not null default 'draft' check ("paymentStatus" in ('draft', 'overdue', 'paid', 'unpaid', 'voided', 'overpaid', 'withdrawn')),
  type text,
  "axsCode" text,
  "companyId" uuid not null references companies(id),
  "branchId" uuid references branches(id),
  "studentId" uuid not null references users(id),
  "issueDate" date,
  "dueDate" date,
  "qrExpiryDate" date,
  "hasExpiryDate" boolean not null default false,
  "qrReferenceNo" text,
  "classInformations" jsonb not null default '[]'::jsonb check (jsonb_typeof("classInformations") = 'array'),
  "isRegistrationFee" boolean not null default false,
  "registrationFeeConfig" jsonb,
  "depositSettings" jsonb,
  gst numeric(5,2) not null default 0 check (gst in (0, 7, 8, 9)),
  remarks text,
  notes text,
  "paymentSummaryStatic" jsonb,
  summary jsonb,
  "paidAt" timestamptz,
  status text not null default 'active' check (status in ('active', 'deleted')),
  check ("dueDate" is null or "issueDate" is null or "dueDate" >= "issueDate")
);
create unique index payment_advices_company_name_key on payment_advices ("companyId", name) where name is not null;
create index payment_advices_issue_date_idx on payment_advices ("issueDate");
create index payment_advices_due_date_idx on payment_advices ("dueDate");

create table payment_advice_logs (
  id uuid primary key default gen_random_uuid(),
  "paymentAdviceId" uuid not null references payment_advices(id),
  type text not null check (type in ('create', 'update', 'change_status', 'duplicate')),
  "valueBefore" jsonb,
  "valueAfter" jsonb,
  "createdBy" uuid references users(id)
);

create table invoices (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "invoiceDate" date not null default current_date,
  total numeric(12,2) not null default 0,
  "paidAmount" numeric(12,2) not null default 0,
  "invoiceStatus" text not null default 'active' check ("invoiceStatus" in ('active', 'voided', 'paid', 'partial_payment', 'overpaid', 'payment_online')),
  notes text,
  reasons text,
  "isGeneratedReceipt" boolean not null default false,
  "paymentAdviceId" uuid references payment_advices(id),
  "companyId" uuid not null references companies(id),
  "studentId" uuid references users(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create unique index invoices_company_name_key on invoices ("companyId", name);
create index invoices_invoice_date_idx on invoices ("invoiceDate");

create table receipts (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  "receiptDate" date not null default current_date,
  amount numeric(12,2) not null default 0,
  "paymentMethod" text check ("paymentMethod" in ('cheque', 'cash', 'credit_card', 'nets', 'interbank_transfer', 'sponsorship',
    'credit_note', 'qr_code', 'axs', 'absorbed_by_company_as_expense')),
  "cardType" text check ("cardType" in ('normal', 'visa', 'master', 'amex', 'union_pay')),
  "invoiceId" uuid references invoices(id),
  "paymentAdviceId" uuid references payment_advices(id),
  "companyId" uuid not null references companies(id),
  "branchId" uuid references branches(id),
  "studentId" uuid references users(id),
  status text not null default 'active' check (status in ('active', 'voided', 'paid', 'partial_payment', 'overpaid', 'payment_online', 'deleted'))
);
create unique index receipts_company_name_key on receipts ("companyId", name);
create index receipts_receipt_date_idx on receipts ("receiptDate");

-- Partial payments of an invoice; each payment produces (or belongs to) a receipt.
create table invoice_payments (
  id uuid primary key default gen_random_uuid(),
  "invoiceId" uuid not null references invoices(id),
  "receiptId" uuid references receipts(id),
  amount numeric(12,2) not null,
  "paymentMethod" text not null default 'cash' check ("paymentMethod" in ('cheque', 'cash', 'credit_card', 'nets', 'interbank_transfer',
    'sponsorship', 'credit_note', 'qr_code', 'axs', 'absorbed_by_company_as_expense')),
  "cardType" text check ("cardType" in ('normal', 'visa', 'master', 'amex', 'union_pay')),
  "transactionStatus" text not null default 'success' check ("transactionStatus" in ('fail', 'success', 'in_progress')),
  "referenceNo" text,
  "paidAt" timestamptz not null default now(),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table deposits (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  amount numeric(12,2) not null default 0,
  "depositStatus" text not null default 'issued' check ("depositStatus" in ('issued', 'used', 'paid')),
  "receiptId" uuid references receipts(id),
  "paymentAdviceId" uuid references payment_advices(id),
  "classId" uuid references classes(id),
  "companyId" uuid not null references companies(id),
  "studentId" uuid references users(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create unique index deposits_company_name_key on deposits ("companyId", name);

create table credit_note_classes (
  id uuid primary key default gen_random_uuid(),
  "classId" uuid references classes(id),
  "termId" uuid references terms(id),
  "termName" text,
  "startDate" date,
  "endDate" date,
  "lessonIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("lessonIds") = 'array'),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table credit_note_fees (
  id uuid primary key default gen_random_uuid(),
  "numberOfLesson" int,
  "overpaidAmount" numeric(12,2),
  "unitPriceOfClass" numeric(12,2),
  "receiptId" uuid references receipts(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table credit_notes (
  id uuid primary key default gen_random_uuid(),
  name text,
  type text not null check (type in ('suspension', 'overpaid')),
  "creditNoteStatus" text not null default 'awaiting_front_desk_action' check ("creditNoteStatus" in ('delete', 'used', 'voided', 'rejected',
    'issued', 'awaiting_front_desk_action', 'awaiting_finance_action', 'awaiting_finance_approval')),
  reason text,
  remarks text,
  summary jsonb,
  gst numeric(5,2) not null default 0 check (gst in (0, 7, 8, 9)),
  "approverId" uuid references users(id),
  "approvedAt" timestamptz,
  "studentId" uuid not null references users(id),
  "companyId" uuid not null references companies(id),
  "suspensionId" uuid references suspensions(id),
  "paymentAdviceId" uuid references payment_advices(id),
  "creditNoteClassId" uuid references credit_note_classes(id),
  "creditNoteFeeId" uuid references credit_note_fees(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create unique index credit_notes_company_name_key on credit_notes ("companyId", name) where name is not null;

create table credit_note_logs (
  id uuid primary key default gen_random_uuid(),
  "creditNoteId" uuid not null references credit_notes(id),
  type text not null check (type in ('create', 'update', 'change_status', 'duplicate')),
  "valueBefore" jsonb,
  "valueAfter" jsonb,
  "createdBy" uuid references users(id)
);

create table refunds (
  id uuid primary key default gen_random_uuid(),
  name text,
  type text not null default 'withdrawal' check (type in ('withdrawal')),
  "refundStatus" text not null default 'awaiting_front_desk_action' check ("refundStatus" in ('rejected_by_sale', 'rejected_by_finance', 'refunded',
    'awaiting_front_desk_action', 'awaiting_sale_action', 'awaiting_finance_approval')),
  "refundMethod" text check ("refundMethod" in ('pay now', 'cheque', 'interbank transfer', 'no refund fee')),
  rating text check (rating in ('great', 'average', 'good', 'not good')),
  reason text,
  "reasonReject" text,
  "noticeDate" date,
  "issuedBy" uuid references users(id),
  "payeeDetails" jsonb,
  "studentFeedback" jsonb,
  summary jsonb,
  "creditNoteIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("creditNoteIds") = 'array'),
  "depositIds" jsonb not null default '[]'::jsonb check (jsonb_typeof("depositIds") = 'array'),
  "studentId" uuid not null references users(id),
  "companyId" uuid not null references companies(id),
  "withdrawalId" uuid references withdrawals(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);
create unique index refunds_company_name_key on refunds ("companyId", name) where name is not null;

create table refund_classes (
  id uuid primary key default gen_random_uuid(),
  "refundId" uuid not null references refunds(id),
  "classId" uuid references classes(id),
  "receiptId" uuid references receipts(id),
  deduction numeric(12,2) not null default 0,
  "unitPrice" numeric(12,2) not null default 0,
  "lastLessonDate" date,
  "leftLessonAmount" numeric(12,2) not null default 0,
  "leftLessonNo" int not null default 0,
  "oweLessonNo" int not null default 0,
  "otherPayments" jsonb not null default '[]'::jsonb,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

create table refund_logs (
  id uuid primary key default gen_random_uuid(),
  "refundId" uuid not null references refunds(id),
  type text not null check (type in ('create', 'update', 'change_status', 'duplicate')),
  "valueBefore" jsonb,
  "valueAfter" jsonb,
  "createdBy" uuid references users(id)
);

-- A transfer's bill: fromClass is a snapshot {name, termInformations, classFee} of the class left.
create table transfer_bills (
  id uuid primary key default gen_random_uuid(),
  "studentId" uuid references users(id),
  "paymentAdviceId" uuid references payment_advices(id),
  "requestTransferClassId" uuid references request_transfer_classes(id),
  "fromClassId" uuid references classes(id),
  "toClassId" uuid references classes(id),
  "fromClass" jsonb,
  "classFee" numeric(12,2) not null default 0,
  status text not null default 'active' check (status in ('active', 'deleted'))
);

-- Enrolments may point at the PA that billed them.
alter table student_classes add column "paymentAdviceId" uuid references payment_advices(id);

create table reward_reports (
  id uuid primary key default gen_random_uuid(),
  month date not null,
  "dataStatic" jsonb,
  "companyId" uuid references companies(id),
  status text not null default 'active' check (status in ('active', 'deleted'))
);

select app_internal.standardize();

-- indexes on the audit columns (added by standardize)
create index payment_advices_payment_status_idx on payment_advices ("paymentStatus", status, "updatedAt" desc);
create index invoices_invoice_status_idx on invoices ("invoiceStatus", status, "updatedAt" desc);
create index credit_notes_credit_note_status_idx on credit_notes ("creditNoteStatus", status, "updatedAt" desc);
create index refunds_refund_status_idx on refunds ("refundStatus", status, "updatedAt" desc);
