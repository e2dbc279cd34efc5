/**
 * Money received (FINANCE.md §4 "Invoice, payments, receipt"): the invoice of an issued PA, its payments
 * (each with a receipt) and the statuses they lead to. Pure: the server's finance service and the screens
 * both read these rules.
 */
import { formatMoney, type Cents } from "../money.ts";

/** Spec part 2 §3 enumerations, in the spec's order. */
export const PAYMENT_METHODS = [
  "cheque", "cash", "credit_card", "nets", "interbank_transfer", "sponsorship", "credit_note", "qr_code", "axs", "absorbed_by_company_as_expense",
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cheque: "Cheque",
  cash: "Cash",
  credit_card: "Credit Card",
  nets: "NETS",
  interbank_transfer: "Interbank Transfer",
  sponsorship: "Sponsorship",
  credit_note: "Credit Note",
  qr_code: "QR Code (PayNow)",
  axs: "AXS",
  absorbed_by_company_as_expense: "Absorbed by Company as Expense",
};

export const CARD_TYPES = ["normal", "visa", "master", "amex", "union_pay"] as const;
export type CardType = (typeof CARD_TYPES)[number];
export const CARD_TYPE_LABELS: Record<CardType, string> = { normal: "Normal", visa: "Visa", master: "Master", amex: "Amex", union_pay: "UnionPay" };

export const INVOICE_STATUSES = ["active", "voided", "paid", "partial_payment", "overpaid", "payment_online"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  active: "Active",
  voided: "Voided",
  paid: "Paid",
  partial_payment: "Partial Payment",
  overpaid: "OverPaid",
  payment_online: "Payment Online",
};
export const INVOICE_STATUS_TONES: Record<InvoiceStatus, "success" | "warning" | "danger" | "default" | "processing"> = {
  active: "danger",
  partial_payment: "warning",
  paid: "success",
  overpaid: "processing",
  voided: "default",
  payment_online: "processing",
};

export const RECEIPT_STATUS_LABELS: Record<"active" | "voided", string> = { active: "Active", voided: "Voided" };
/** A deposit: issued with its PA, paid with it, used once deducted on a later PA, refunded once a refund pays it back (FINANCE.md §4). */
export type DepositStatus = "issued" | "paid" | "used" | "refunded";
export const DEPOSIT_STATUS_LABELS: Record<DepositStatus, string> = { issued: "Issued", paid: "Paid", used: "Used", refunded: "Refunded" };

/** An issued PA (unpaid, paid, overpaid) has an invoice; a draft, a voided or a withdrawn one has none. */
export function isPaInvoiceable(paymentStatus: string): boolean {
  return paymentStatus === "unpaid" || paymentStatus === "paid" || paymentStatus === "overpaid";
}

/** The invoice's status from what it asks and what was received (non-voided payments). */
export function invoiceStatusFor(total: Cents, received: Cents): Exclude<InvoiceStatus, "voided" | "payment_online"> {
  if (received <= 0) return "active";
  if (received < total) return "partial_payment";
  return received === total ? "paid" : "overpaid";
}

/** The PA follows its invoice: paid when the total is received, overpaid above it, unpaid below. */
export function paStatusFor(total: Cents, received: Cents): "unpaid" | "paid" | "overpaid" {
  if (received <= 0 || received < total) return "unpaid";
  return received === total ? "paid" : "overpaid";
}

/** What is left to pay (never below zero) and what was paid beyond the total. */
export function balanceOf(total: Cents, received: Cents): { due: Cents; overpaid: Cents } {
  return { due: Math.max(0, total - received), overpaid: Math.max(0, received - total) };
}

/** A credit note pays at most what is left of it (its total less what earlier payments used). */
export function creditNoteLeft(total: Cents, used: Cents): Cents {
  return Math.max(0, total - used);
}

/** The void reason shown on receipts voided with their paid PA (FINANCE.md §4), before the PA's void reason. */
export const VOIDED_WITH_PA_REASON = "Payment advice voided: ";

/**
 * SQL: whether receipt `r` was voided on its own (its money taken back), not with its paid PA (`voidedWithPa`: that
 * money stays received and becomes customer credit). The ledger and the reconciliation tell the two apart by it.
 */
export const SELF_VOIDED_RECEIPT_SQL = `(r.status = 'voided' and r."voidReason" is not null and not r."voidedWithPa")`;

export const INVOICE_MESSAGES = {
  notFound: "Invoice not found.",
  receiptNotFound: "Receipt not found.",
  paNotIssued: "Only an issued payment advice (unpaid, paid or overpaid) can be invoiced.",
  voided: "This invoice is voided.",
  hasPayments: "This invoice has payments that are not voided: void them first.",
  reasonRequired: "Please enter the reason.",
  amountRequired: "Please enter the amount.",
  amountPositive: "The amount must be more than S$0.00.",
  methodRequired: "Please select the payment method.",
  cardTypeRequired: "Please select the card type.",
  dateRequired: "Please select the payment date.",
  creditNoteRequired: "Please select a credit note.",
  creditNoteUnusable: "This credit note is not an issued credit note of the student.",
  receiptVoided: "This receipt is already voided.",
  receiptDepositUsed: "A deposit collected on this payment advice was already used or refunded; its payments cannot be voided.",
  receiptCredited: (documents: string) => `Money of this receipt was credited or is being refunded (${documents}); void or reject those first.`,
  creditNoteTooSmall: (left: Cents) => `The credit note has only ${formatMoney(left)} left.`,
} as const;

/** "Credit Card (Visa)", "NETS": how a payment's method reads on screens and papers. */
export function paymentMethodLabel(p: { paymentMethod: PaymentMethod; cardType: CardType | null }): string {
  const method = PAYMENT_METHOD_LABELS[p.paymentMethod] ?? p.paymentMethod;
  return p.paymentMethod === "credit_card" && p.cardType ? `${method} (${CARD_TYPE_LABELS[p.cardType]})` : method;
}

// The REST replies (server/api/invoices.ts), shared with the screens.
export interface InvoiceRecord {
  id: string;
  name: string;
  invoiceDate: string;
  total: string;
  paidAmount: string;
  invoiceStatus: InvoiceStatus;
  reasons: string | null;
  paymentAdviceId: string;
  companyId: string;
  studentId: string | null;
}

export interface InvoiceDetail {
  invoice: InvoiceRecord;
  paymentAdvice: { id: string; name: string | null; paymentStatus: string; issueDate: string | null; dueDate: string | null; total: string };
  student: { id: string; fullName: string | null; studentId: string | null } | null;
  payments: {
    id: string;
    amount: string;
    paymentMethod: PaymentMethod;
    cardType: CardType | null;
    referenceNo: string | null;
    paymentDate: string;
    status: "active" | "deleted";
    creditNoteName: string | null;
    receipt: { id: string; name: string; status: string; voidReason: string | null } | null;
  }[];
  balanceDue: string;
  overpaid: string;
}

export interface ReceiptPaper {
  receipt: {
    id: string;
    name: string;
    receiptDate: string;
    amount: string;
    paymentMethod: PaymentMethod;
    cardType: CardType | null;
    referenceNo: string | null;
    status: string;
    voidReason: string | null;
  };
  invoice: { id: string; name: string; total: string; paidAmount: string; invoiceStatus: string };
  paymentAdvice: { id: string; name: string | null };
  company: { name: string; shortName: string | null; address: string | null; uen: string | null; hasGstNo: boolean | null; gstRefNo: string | null; telNo: string | null; logoUrl: string | null; colorCode: string | null };
  branch: { name: string } | null;
  student: { id: string; fullName: string; username: string | null } | null;
  balanceDue: string;
}


export interface PaymentReply {
  invoice: InvoiceRecord;
  receipt: { id: string; name: string; amount: string };
}
