/**
 * The term billing run (issue 39, ours: not in the spec): one payment advice per student for a branch's
 * chosen terms. The wire shapes of its two calls and the rules that need no database, shared by the
 * screen and the server's finance service (server/finance/billingRun.ts), which prices every PA with the
 * PA builder's own code.
 *
 *   POST /api/v2/finances/billing-runs/preview  BillingRunSelection                          → BillingPreview
 *   POST /api/v2/finances/billing-runs/issue    BillingRunSelection & { studentIds: string[], runId?, leftOut? } → BillingIssueReply
 *   GET  /api/v2/finances/billing-runs?companyId, GET /api/v2/finances/billing-runs/{id}      → BillingRunRecord(s)
 *
 * "E-mail all" is the PA's own call, POST /api/v2/finances/email/unpaid-pa-to-parents.
 */
import type { MoneyText } from "./paymentAdviceApi.ts";

/** What the run bills: a company's branch, an academic year and term names, optionally some classes or programmes. */
export interface BillingRunSelection {
  companyId: string;
  branchId: string;
  /** The academic calendars' year. */
  year: number;
  /** Term names ("Term 1"): the terms of that name in every calendar of the year. */
  termNames: string[];
  /** Only these classes (empty: every class of the branch). */
  classIds: string[];
  /** Only classes of these programmes (empty: every programme). */
  programIds: string[];
  /** YYYY-MM-DD, on or after today (the issue date). */
  dueDate: string;
}

/** One class card proposed for a student. */
export interface BillingPreviewClass {
  classId: string;
  className: string;
  /** Term names billed (none for special and others classes). */
  terms: string[];
  lessons: number;
}

/** One student's proposed PA, or why the student is skipped. */
export interface BillingPreviewRow {
  studentId: string;
  studentName: string;
  username: string | null;
  parentEmail: string | null;
  classes: BillingPreviewClass[];
  /** The PA's total payable (null when skipped). */
  total: MoneyText | null;
  /** Shown beside the row; the PA is still issued. */
  warnings: string[];
  /** Set: the student gets no PA, for this reason. */
  skipReason: string | null;
}

export interface BillingPreview {
  rows: BillingPreviewRow[];
}

export type BillingIssueResult =
  | { studentId: string; status: "issued"; paymentAdviceId: string; name: string; total: MoneyText; parentEmail: string | null }
  | { studentId: string; status: "skipped"; reason: string };

export interface BillingIssueReply {
  /** The stored run these results were added to (the first batch's call creates it; the next ones send it). */
  runId: string;
  results: BillingIssueResult[];
}

/** One student's outcome as the stored run keeps it. */
export type BillingRunOutcome = BillingIssueResult & { studentName: string };

/**
 * A stored run (GET /finances/billing-runs?companyId → the latest 20 without results; GET …/{id} → with them).
 * Stored as the screen's issue calls come in, so closing the page loses nothing already issued.
 */
export interface BillingRunRecord {
  id: string;
  createdAt: string;
  createdByName: string | null;
  branchName: string | null;
  selection: BillingRunSelection;
  issuedCount: number;
  skippedCount: number;
  total: MoneyText;
  results?: BillingRunOutcome[];
}

/** How many students one issue call takes: the screen sends the run in batches and shows progress between them. */
export const BILLING_BATCH_SIZE = 25;

export const BILLING_RUN_MESSAGES = {
  company: "Please select company!",
  branch: "Please select branch!",
  year: "Please select academic year!",
  terms: "Please select at least one term.",
  dueDate: "Please select due date!",
  duePast: "The due date cannot be before the issue date.",
  students: "Select at least one student.",
  nothingToBill: "No lesson of the chosen terms is left to bill.",
  noClass: "The student has no class to bill for the chosen terms.",
  noParentEmail: "No parent e-mail: the payment advice cannot be e-mailed.",
  alreadyBilled: (paNames: readonly string[], what: readonly string[]) => `Already billed on ${paNames.join(", ")}: ${what.join(", ")}.`,
  excluded: "Left out of the run.",
  runUnknown: "This billing run does not exist.",
  runOtherSelection: "This billing run was made for another selection.",
} as const;

export interface SiblingCandidate {
  id: string;
  username: string | null;
  siblingIds: readonly string[];
}

/**
 * Who gets the company's sibling discount in a run: in every group of siblings billed together, each child
 * but the first by username (the eldest account pays full price, as centres usually word it: "2nd child").
 * Siblings outside the run do not count.
 */
export function siblingDiscountTakers(students: readonly SiblingCandidate[]): Set<string> {
  const inRun = new Map(students.map((s) => [s.id, s]));
  const takers = new Set<string>();
  for (const s of students) {
    const group = [s, ...s.siblingIds.map((id) => inRun.get(id)).filter((x): x is SiblingCandidate => Boolean(x))];
    if (group.length < 2) continue;
    const first = [...group].sort((a, b) => (a.username ?? a.id).localeCompare(b.username ?? b.id) || a.id.localeCompare(b.id))[0]!;
    if (first.id !== s.id) takers.add(s.id);
  }
  return takers;
}

/** GET /api/v2/finances/billing-runs/options?companyId: what the run's form offers for a company. */
export interface BillingRunOptions {
  branches: Array<{ id: string; name: string }>;
  /** Academic years with the term names of their calendars. */
  years: Array<{ year: number; termNames: string[] }>;
  classes: Array<{ id: string; name: string; branchId: string | null; programId: string | null; year: number }>;
  programmes: Array<{ id: string; name: string }>;
}
