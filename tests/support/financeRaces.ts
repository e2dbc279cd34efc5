/**
 * The commands of the randomised finance workflow that race or crash (issue 31 §9; FINANCE.md §7 "caps under row
 * locks", §1 "Idempotent.", §2 "no number gap … after any crash"): conflicting money-out requests sent at once (on
 * PostgreSQL they really run concurrently; PGlite serialises them), and a kill -9 of a server in the middle of a
 * payment, restarted on the same database and retried with the same Idempotency-Key.
 */
import { randomUUID } from "node:crypto";
import {
  afterCommand, cents, draftPa, expectStatus, fail, money, paFieldsFor, paidDeposits, refundAwaitingApproval, sync,
  type Answer, type Cmd, type Model, type Real,
} from "./financeModel.ts";
import { PAUSE_HEADER, pausedLine, type PausePoint } from "../../server/finance/testPause.ts";

/**
 * At once: the finance manager approves a withdrawal refund that includes the student's unused credit notes and
 * paid deposits; front desk pays an unpaid PA of the student with one of those credit notes; front desk issues a
 * PA deducting those deposits. The same money can leave only once: when the refund is paid out, neither the
 * payment by credit note nor the deduction may also succeed.
 */
export class RefundRace implements Cmd {
  constructor(readonly student: number) {}
  private pick(m: Model) {
    const i = this.student % m.students.length;
    if (m.students[i]!.withdrawn) return undefined;
    const cn = m.cns.find((c) => c.student === i && c.status === "issued" && c.used === 0);
    const depositPa = m.pas.some((p) => p.student === i && (p.status === "paid" || p.status === "overpaid") && (p.fields.classInformations as Array<{ deposits: unknown[] }>)[0]!.deposits.length > 0);
    return cn || depositPa ? { i, cn } : undefined;
  }
  check(m: Model) {
    return !!this.pick(m) && m.pas.length < 6;
  }
  async run(m: Model, r: Real) {
    const { i, cn } = this.pick(m)!;
    const s = r.students[i]!;
    // the PA that will deduct the deposits is drafted before the withdrawal (a draft holds nothing)
    const deposits = await paidDeposits(r, i);
    const fields = paFieldsFor(s, false, deposits);
    const draft = deposits.length ? await draftPa(r, fields) : undefined;
    const target = cn && m.pas.find((p) => p.student === i && p.status === "unpaid");
    const refund = await refundAwaitingApproval(m, r, i, true);
    expectStatus(await refund.move("sales", "awaiting_finance_approval"), [200], "refund to finance");
    expectStatus(await refund.patch("finance_manager", { payeeDetails: { name: "Parent", bankName: "DBS", accountNo: "123" }, refundMethod: "interbank transfer" }), [200], "payee");
    await sync(m, r);
    const approve = refund.fresh().then((d) => r.sim.call("finance_manager", "PATCH", `/refund/${refund.id}/change-refund-status`, { status: "refunded", updatedAt: d.updatedAt }, randomUUID()));
    const live = target && m.pas.includes(target) && target.status === "unpaid" && target.total > target.received ? target : undefined;
    const amount = live && cn ? Math.min(cn.total - cn.used, live.total - live.received) : 0;
    const payment: Body = { amount: money(amount), paymentMethod: "credit_note", creditNoteId: cn?.id };
    const pay = live && amount > 0
      ? live.invoiceId
        ? r.sim.call("front_desk", "POST", `/finances/invoices/${live.invoiceId}/payments`, payment, randomUUID())
        : r.sim.call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: live.id, payment }, randomUUID())
      : undefined;
    const issue = draft ? r.sim.call("front_desk", "PUT", `/finances/payment-advices/${draft.id}`, { ...fields, action: "issue", updatedAt: draft.updatedAt }, randomUUID()) : undefined;
    const [approved, paid, issued] = await Promise.all([approve, pay, issue]);
    expectStatus(approved, [200, 400, 409], "approve refund (race)");
    if (paid) expectStatus(paid, [201, 400, 409], "pay by credit note (race)");
    if (issued) expectStatus(issued, [200, 400, 409], "issue PA deducting deposits (race)");
    const refunded = approved.statusCode === 200;
    // A refund pays out what its credit notes have left when it is approved (FINANCE.md §4): a payment that used part
    // of one leaves the rest refundable. Together they may take out at most what the included credit notes had left.
    const included = m.cns.filter((c) => refund.creditNoteIds.includes(c.id));
    const left = included.reduce((sum, c) => sum + c.total - c.used, 0);
    const out = (refunded ? cents((await refund.fresh()).summary?.creditNoteAmount) : 0) + (paid?.statusCode === 201 && cn && refund.creditNoteIds.includes(cn.id) ? amount : 0);
    if (out > left) fail(`credit notes with ${money(left)} left paid ${money(out)} between the refund and a payment by credit note`);
    if (refunded && issued?.statusCode === 200 && refund.depositIds.some((d) => deposits.includes(d))) fail(`deposits ${deposits.join(", ")} were refunded and also deducted on a PA`);
    if (issued?.statusCode === 200) m.pas.push({ id: draft!.id, student: i, status: "unpaid", total: 0, received: 0, invoiceId: null, receipts: [], updatedAt: "", fields });
    r.sim.count("race: refund / pay by credit note / deduct deposits", approved, paid, issued);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `RefundRace(student ${this.student})`;
  }
}
type Body = Record<string, unknown>;

/** Two PAs deducting the same paid deposit, issued at once: exactly one may take it (the other is refused, 400). */
export class DepositRace implements Cmd {
  constructor(readonly student: number) {}
  private pick(m: Model) {
    const i = this.student % m.students.length;
    if (m.students[i]!.withdrawn || m.pas.length > 4) return undefined;
    return m.pas.some((p) => p.student === i && (p.status === "paid" || p.status === "overpaid") && (p.fields.classInformations as Array<{ deposits: unknown[] }>)[0]!.deposits.length > 0) ? i : undefined;
  }
  check(m: Model) {
    return this.pick(m) !== undefined;
  }
  async run(m: Model, r: Real) {
    const i = this.pick(m)!;
    const deposits = await paidDeposits(r, i);
    let answers: Answer[] = [];
    if (deposits.length) {
      const fields = paFieldsFor(r.students[i]!, false, deposits.slice(0, 1));
      const drafts = [await draftPa(r, fields), await draftPa(r, fields)];
      answers = await Promise.all(drafts.map((d) => r.sim.call("front_desk", "PUT", `/finances/payment-advices/${d.id}`, { ...fields, action: "issue", updatedAt: d.updatedAt }, randomUUID())));
      for (const a of answers) expectStatus(a, [200, 400], "issue PA deducting a deposit (race)");
      const taken = answers.filter((a) => a.statusCode === 200).length;
      if (taken !== 1) fail(`${taken} PAs issued at once deducted one paid deposit: ${answers.map((a) => `${a.statusCode} ${a.body.slice(0, 200)}`).join(" | ")}`);
      answers.forEach((a, k) => {
        if (a.statusCode === 200) m.pas.push({ id: drafts[k]!.id, student: i, status: "unpaid", total: 0, received: 0, invoiceId: null, receipts: [], updatedAt: "", fields });
      });
    }
    r.sim.count(deposits.length ? "race: two PAs deduct one deposit" : "race: two PAs deduct one deposit (none left)", ...answers);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `DepositRace(student ${this.student})`;
  }
}

/**
 * kill -9 (PostgreSQL only): a payment is sent to the child server, which is killed `delayMs` later, mid-request
 * or not — or at a point of its finance transaction (`at`: the server stops there, server/finance/testPause.ts,
 * and is killed once it says so): inside it with every write done, or after its commit before the answer. Then,
 * before any restart: nothing half-written (every invariant and the reconciliation hold, numbers stay gap-free).
 * The server is started again on the same database and the payment retried with the same Idempotency-Key: it is
 * recorded exactly once. A key claimed by the killed server and never answered is taken as abandoned after a window
 * (server/api/idempotency.ts): the retry ages it instead of waiting.
 */
export class KillServer implements Cmd {
  constructor(readonly pa: number, readonly delayMs: number, readonly at: PausePoint | null = null) {}
  private pick(m: Model) {
    const c = m.pas.filter((p) => p.status === "unpaid" && p.total > p.received);
    return c.length ? c[this.pa % c.length] : undefined;
  }
  check(m: Model) {
    return m.mayKill && !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const sim = r.sim;
    const pa = this.pick(m)!;
    const before = pa.received;
    const amount = Math.max(1, Math.floor((pa.total - pa.received) / 2));
    const payment = { amount: money(amount), paymentMethod: "cash", referenceNo: "sim-kill" };
    const [url, body] = pa.invoiceId ? [`/finances/invoices/${pa.invoiceId}/payments`, payment] : ["/finances/invoices", { paymentAdviceId: pa.id, payment }];
    const key = randomUUID();
    const child = await sim.startChild();
    await sim.childToken("front_desk"); // signed in before the clock starts
    const paused = this.at ? child.printed(pausedLine(this.at)) : undefined;
    const sent = sim.callChild("front_desk", "POST", url, body, key, this.at ? { [PAUSE_HEADER]: this.at } : {}).then((a) => a, () => undefined);
    await (paused ?? new Promise((resolve) => setTimeout(resolve, this.delayMs)));
    await sim.stopChild();
    // one kill per sequence (each costs a start): the retry goes to the spare, and a new spare starts for a later one
    m.mayKill = false;
    sim.prepareChildren();
    const first = await sent;
    if (child.child.exitCode === 0) fail("the child server was not killed");
    await afterCommand(m, r, `${this.toString()} (right after the kill)`, true);
    const afterKill = pa.received;
    if (afterKill !== before && afterKill !== before + amount) fail(`after the kill the PA received ${money(afterKill)}: neither ${money(before)} nor ${money(before + amount)}`);
    if (this.at && afterKill !== (this.at === "after-commit" ? before + amount : before)) fail(`killed ${this.at}: the PA received ${money(afterKill)}`);
    // the key the killed server claimed and never answered: as after the abandonment window
    const aged = await sim.server.db.query(`update app_internal.idempotency_keys set "createdAt" = now() - interval '1 hour' where key = $1 and "statusCode" is null`, [key]);
    const retry = await sim.callChild("front_desk", "POST", url, body, key);
    expectStatus(retry, [201], "the killed payment retried with its key");
    await sync(m, r);
    if (pa.received !== before + amount) fail(`the killed payment of ${money(amount)} retried with its key: received ${money(pa.received)}, expected ${money(before + amount)}${aged.rowCount ? " (its key was claimed but never answered)" : ""}`);
    if (first && first.statusCode === 201 && first.body !== retry.body) fail(`the retry answered differently from the first answer: ${first.body} | ${retry.body}`);
    const outcome = first ? "answered before the kill" : afterKill === before ? (aged.rowCount ? "cut after its key was claimed, nothing written" : "cut before its key was claimed") : "cut after it committed";
    sim.stats.kills[outcome] = (sim.stats.kills[outcome] ?? 0) + 1;
    sim.count("kill -9 mid-payment, restart, retry");
    await afterCommand(m, r, this.toString(), true);
  }
  toString() {
    return this.at ? `KillServer(pa ${this.pa}, ${this.at})` : `KillServer(pa ${this.pa}, after ${this.delayMs} ms)`;
  }
}
