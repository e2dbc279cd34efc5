-- Issue 31: a receipt voided with its paid PA keeps its money (it became the student's credit), one voided on its
-- own gives it back. The ledger and the reconciliation told the two apart by the void reason's prefix; a column says
-- it now. Existing receipts take it from that prefix (the one the void of a paid PA wrote).
alter table receipts add column "voidedWithPa" boolean not null default false;
update receipts set "voidedWithPa" = true where status = 'voided' and left("voidReason", 23) = 'Payment advice voided: ';
