/**
 * The ledger's posting rules (FINANCE.md §7): one pure function per finance operation, from the
 * operation's figures (integer cents) to the balanced lines of its journal entry. No I/O: the finance
 * service (server/finance/ledger.ts) reads the figures, the backfill of older documents uses the same
 * functions, and the reconciliation compares what they imply with what was posted.
 *
 * Signs (docs/DECISIONS.md "The ledger"): receivable and cash are assets (a debit raises them); every
 * other account is owed to the student or to the state (a credit raises it). `deposits_billed` is the
 * one intermediate account: a deposit billed on an issued PA and not yet paid.
 */
import type { Cents } from "../money.ts";

export const ACCOUNTS = ["receivable", "cash", "customer_credit", "deposits_held", "deposits_billed", "revenue_deferred", "revenue_recognised", "gst_payable"] as const;
export type Account = (typeof ACCOUNTS)[number];

export const OPERATIONS = [
  "pa_issued", "pa_edited", "pa_voided_unpaid", "pa_withdrawn", "pa_voided_paid", "payment_received", "receipt_voided", "credit_note_issued", "credit_note_voided", "refund_refunded",
  "revenue_recognised",
] as const;
export type LedgerOperation = (typeof OPERATIONS)[number];

/** Accounts a debit raises; the others rise with a credit. */
export const DEBIT_ACCOUNTS: ReadonlySet<Account> = new Set(["receivable", "cash"]);

export interface LedgerLine {
  account: Account;
  /** The payment or refund method of a `cash` line; null otherwise. */
  method: string | null;
  debit: Cents;
  credit: Cents;
  /** A recognition line's class (null: the PA's fees) and month (its first day): the revenue report's split. */
  classId?: string | null;
  revenueMonth?: string | null;
  /** A revenue_deferred line of a recognition entry: the revenue report's figure it states for its class and month. */
  revenueFigure?: RevenueFigure | null;
}

/** A signed movement: positive = debit, negative = credit; zero moves nothing. */
function move(account: Account, signedDebit: Cents, method: string | null = null): LedgerLine[] {
  if (signedDebit === 0) return [];
  return [{ account, method: account === "cash" ? method : null, debit: Math.max(signedDebit, 0), credit: Math.max(-signedDebit, 0) }];
}

const key = (l: LedgerLine) => `${l.account}|${l.method ?? ""}|${l.classId ?? ""}|${l.revenueMonth ?? ""}|${l.revenueFigure ?? ""}`;

/** Lines netted per account (and method): what an entry moves, with movements that cancel left out. */
export function net(lines: readonly LedgerLine[]): LedgerLine[] {
  const sums = new Map<string, { line: LedgerLine; amount: Cents }>();
  for (const l of lines) {
    const s = sums.get(key(l)) ?? { line: l, amount: 0 };
    s.amount += l.debit - l.credit;
    sums.set(key(l), s);
  }
  return [...sums.values()].flatMap(({ line, amount }) =>
    move(line.account, amount, line.method).map((m) =>
      line.classId === undefined && line.revenueMonth === undefined && line.revenueFigure === undefined ? m : { ...m, classId: line.classId, revenueMonth: line.revenueMonth, revenueFigure: line.revenueFigure },
    ),
  );
}

export function negate(lines: readonly LedgerLine[]): LedgerLine[] {
  return lines.map((l) => ({ ...l, debit: l.credit, credit: l.debit }));
}

export function isBalanced(lines: readonly LedgerLine[]): boolean {
  return lines.reduce((s, l) => s + l.debit - l.credit, 0) === 0;
}

/** How an account stands after lines: debit − credit for assets, credit − debit for the others. */
export function balanceOf(lines: readonly LedgerLine[], account: Account, method?: string): Cents {
  const sign = DEBIT_ACCOUNTS.has(account) ? 1 : -1;
  return lines.filter((l) => l.account === account && (method === undefined || l.method === method)).reduce((s, l) => s + sign * (l.debit - l.credit), 0);
}

/** The figures of a PA's summary the ledger needs (FINANCE.md §3). */
export interface PaFigures {
  totalBeforeGst: Cents;
  gst: Cents;
  deposit: Cents;
  deductedDeposit: Cents;
  totalPayable: Cents;
}

/**
 * PA issued: the student owes its totalPayable; revenue is deferred until lessons are delivered; GST is
 * owed to the state; new deposits are billed (held once paid); deposits applied leave deposits_held.
 */
export function paIssued(pa: PaFigures): LedgerLine[] {
  return net([
    ...move("receivable", pa.totalPayable),
    ...move("deposits_held", pa.deductedDeposit),
    ...move("revenue_deferred", -pa.totalBeforeGst),
    ...move("gst_payable", -pa.gst),
    ...move("deposits_billed", -pa.deposit),
  ]);
}

/** PA edited while unpaid (no payment): the difference between the new figures and the old. */
export function paEdited(before: PaFigures, after: PaFigures): LedgerLine[] {
  return net([...negate(paIssued(before)), ...paIssued(after)]);
}

/** PA voided unpaid, or withdrawn (no payment): its issue is reversed. */
export function paReversed(pa: PaFigures): LedgerLine[] {
  return negate(paIssued(pa));
}

/**
 * What a PA and its receipts should leave standing, given the money received: the student owes what is
 * not paid (receivable), what was paid beyond the total is customer credit, and a deposit is billed until
 * the PA is paid. `settle` moves the difference between where they stand and where they should.
 */
export interface PaStanding {
  receivable: Cents;
  depositsBilled: Cents;
}

export function settle(current: PaStanding, target: PaStanding): LedgerLine[] {
  const toReceivable = target.receivable - current.receivable;
  const toBilled = target.depositsBilled - current.depositsBilled;
  return net([
    ...move("receivable", toReceivable),
    ...move("customer_credit", -toReceivable),
    ...move("deposits_billed", -toBilled),
    ...move("deposits_held", toBilled),
  ]);
}

/** Where a PA group stands after lines are added to what it had. */
export function standingAfter(current: PaStanding, lines: readonly LedgerLine[]): PaStanding {
  return { receivable: current.receivable + balanceOf(lines, "receivable"), depositsBilled: current.depositsBilled + balanceOf(lines, "deposits_billed") };
}

/**
 * A PA's target standing: while live, the unpaid part is receivable (an overpayment is customer credit) and
 * its deposits stay billed until it is paid in full (FINANCE.md §4: a deposit is paid with its PA); a
 * voided or withdrawn PA leaves nothing standing.
 */
export function paTarget(pa: { totalPayable: Cents; received: Cents; deposit: Cents; live: boolean }): PaStanding {
  if (!pa.live) return { receivable: 0, depositsBilled: 0 };
  const paid = pa.received > 0 && pa.received >= pa.totalPayable;
  return { receivable: Math.max(0, pa.totalPayable - pa.received), depositsBilled: paid ? 0 : pa.deposit };
}

/**
 * Payment recorded: cash of its method comes in (or the student's credit is spent, for payment by
 * credit note) and pays the receivable; what exceeds the balance due becomes customer credit, and the
 * PA's deposits are held once it is paid (both by `settle` to the PA's standing after the payment).
 */
export function paymentReceived(payment: { amount: Cents; method: string }, before: PaStanding, target: PaStanding): LedgerLine[] {
  const lines = paymentMoney(payment);
  return net([...lines, ...settle(standingAfter(before, lines), target)]);
}

/** A payment alone, before the PA settles: the money in (cash of its method, or credit spent) against the receivable. */
export function paymentMoney(payment: { amount: Cents; method: string }): LedgerLine[] {
  const money = payment.method === "credit_note" ? move("customer_credit", payment.amount) : move("cash", payment.amount, payment.method);
  return [...money, ...move("receivable", -payment.amount)];
}

/** Receipt voided: the payment is taken back (cash out of its method, or credit given back), the PA settles again. */
export function receiptVoided(payment: { amount: Cents; method: string }, before: PaStanding, target: PaStanding): LedgerLine[] {
  const lines = negate(paymentMoney(payment));
  return net([...lines, ...settle(standingAfter(before, lines), target)]);
}

/** What credit notes for the PA's lessons and its refunded lessons already took out of deferred revenue and GST. */
export interface AlreadyCredited {
  net: Cents;
  gst: Cents;
  /** The part of `net` refunds took out of recognised revenue (their other payments less deductions), not deferred. */
  fees?: Cents;
}

/**
 * Paid PA voided: the sale is reversed, and what its payments settled becomes customer credit (the cash
 * stays where it was received); deposits it collected are released from deposits_held. Lessons already
 * credited (a suspension credit note) or refunded took their part of the sale out before: the void takes out
 * only the rest, so the student's credit is what was received less what was already given back (FINANCE.md §4).
 */
export function paVoidedPaid(pa: PaFigures, before: PaStanding, credited: AlreadyCredited = { net: 0, gst: 0 }): LedgerLine[] {
  const reversal = paReversed(pa);
  const fees = credited.fees ?? 0;
  const alreadyOut = [
    ...move("revenue_deferred", -(credited.net - fees)), ...move("revenue_recognised", -fees), ...move("gst_payable", -credited.gst), ...move("customer_credit", credited.net + credited.gst),
  ];
  return net([...reversal, ...settle(standingAfter(before, reversal), { receivable: 0, depositsBilled: 0 }), ...alreadyOut]);
}

export interface CreditNoteFigures {
  type: "suspension" | "overpaid";
  subTotal: Cents;
  gst: Cents;
  total: Cents;
}

/**
 * Credit note issued. Suspension: the lessons credited leave deferred revenue and their GST is given
 * back, as customer credit. Overpaid: the money is already customer credit (the overpayment or the void
 * of the paid PA put it there), so the credit note moves nothing — the reconciliation checks it matches.
 */
export function creditNoteIssued(cn: CreditNoteFigures): LedgerLine[] {
  if (cn.type === "overpaid") return [];
  return net([...move("revenue_deferred", cn.subTotal), ...move("gst_payable", cn.gst), ...move("customer_credit", -cn.total)]);
}

/** Unused credit note voided: its issue is reversed. */
export function creditNoteVoided(cn: CreditNoteFigures): LedgerLine[] {
  return negate(creditNoteIssued(cn));
}

export interface RefundFigures {
  /** Σ class lessons before GST (left lessons − owed lessons): what the revenue model credits back. */
  classNet: Cents;
  /** Σ class other payments − deductions (no GST): revenue given back (or kept) on the refund's day. */
  classFees: Cents;
  /** Σ GST of the class amounts. */
  classGst: Cents;
  /** What was left of the included credit notes. */
  creditNotes: Cents;
  /** The included paid deposits. */
  deposits: Cents;
  /** The refund method, the cash account it is paid from. */
  method: string;
}

/**
 * Refund refunded: lessons not delivered leave deferred revenue and their GST is given back (as the revenue model
 * credits them); other payments less deductions are a dated correction of recognised revenue (docs/DECISIONS.md);
 * included credit notes leave customer_credit, included deposits leave deposits_held; the total is paid out of
 * cash by the refund's method.
 */
export function refundRefunded(r: RefundFigures): LedgerLine[] {
  const total = r.classNet + r.classFees + r.classGst + r.creditNotes + r.deposits;
  return net([
    ...move("revenue_deferred", r.classNet),
    ...move("revenue_recognised", r.classFees),
    ...move("gst_payable", r.classGst),
    ...move("customer_credit", r.creditNotes),
    ...move("deposits_held", r.deposits),
    ...move("cash", -total, r.method),
  ]);
}

/**
 * Revenue recognised: a PA's revenue moves from deferred to recognised as its lessons are delivered and its fees
 * fall due, by the difference between what should be recognised now and what its earlier entries recognised (a
 * negative difference — a credit, a void, an edit — moves it back: the dated correction entry of FINANCE.md §7).
 */
export function revenueRecognised(target: Cents, alreadyRecognised: Cents): LedgerLine[] {
  const delta = target - alreadyRecognised;
  return net([...move("revenue_deferred", delta), ...move("revenue_recognised", -delta)]);
}

/** The revenue report's figures of a class and month (FINANCE.md §6): billed − credited = recognised + deferred. */
export const REVENUE_FIGURES = ["billed", "credited", "recognised"] as const;
export type RevenueFigure = Exclude<(typeof REVENUE_FIGURES)[number], "recognised">;

/** One figure of one class (null: the PA's fees) and month of a PA's revenue: what the model states and what was posted. */
export interface RecognitionPart {
  classId: string | null;
  /** The month's first day (YYYY-MM-DD); null for a card with no lessons, and for lines posted before the split by month. */
  revenueMonth: string | null;
  figure: (typeof REVENUE_FIGURES)[number];
  target: Cents;
  posted: Cents;
}

/**
 * A PA's recognition entry (docs/DECISIONS.md "Revenue by class and month in the ledger"): each part's difference on
 * lines that name it. Recognised moves revenue_deferred to revenue_recognised. Billed and credited are labels within
 * revenue_deferred: the documents' entries moved it without a class or month, and a billed (credited) difference is
 * a credit (debit) of revenue_deferred naming the part against the opposite untagged line — the account's balance
 * does not change, only which class and month its figures state.
 */
export function revenueRecognisedByPart(parts: readonly RecognitionPart[]): LedgerLine[] {
  return net(
    parts.flatMap((p): LedgerLine[] => {
      const named = { classId: p.classId, revenueMonth: p.revenueMonth };
      if (p.figure === "recognised") return revenueRecognised(p.target, p.posted).map((l) => ({ ...l, ...named }));
      const delta = (p.target - p.posted) * (p.figure === "billed" ? -1 : 1);
      return [...move("revenue_deferred", delta).map((l) => ({ ...l, ...named, revenueFigure: p.figure as RevenueFigure })), ...move("revenue_deferred", -delta)];
    }),
  );
}
