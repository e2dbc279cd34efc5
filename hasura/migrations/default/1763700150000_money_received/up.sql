-- Issue 15: money received. A voided receipt keeps its reason; a payment by credit note names the credit
-- note it used; a credit note may pay several invoices until nothing of it is left ("usedAmount").
alter table receipts add column "voidReason" text;
alter table invoice_payments add column "creditNoteId" uuid references credit_notes(id);
alter table credit_notes add column "usedAmount" numeric(12,2) not null default 0 check ("usedAmount" >= 0);

-- the lookups of the service (a PA's invoice, an invoice's payments and receipts) and the lists' filters and sorts
create index invoices_payment_advice_idx on invoices ("paymentAdviceId");
create index invoices_list_idx on invoices ("invoiceDate" desc, "updatedAt" desc) where status <> 'deleted';
create index invoice_payments_invoice_idx on invoice_payments ("invoiceId");
create index invoice_payments_receipt_idx on invoice_payments ("receiptId");
create index invoice_payments_credit_note_idx on invoice_payments ("creditNoteId");
create index receipts_invoice_idx on receipts ("invoiceId");
create index receipts_payment_advice_idx on receipts ("paymentAdviceId");
create index receipts_list_idx on receipts ("receiptDate" desc, "updatedAt" desc);
create index receipts_method_date_idx on receipts ("paymentMethod", "receiptDate");
create index deposits_payment_advice_idx on deposits ("paymentAdviceId");
create index deposits_student_idx on deposits ("studentId", "depositStatus");
create index deposits_list_idx on deposits ("updatedAt" desc);
create index credit_notes_student_idx on credit_notes ("studentId", "creditNoteStatus");
