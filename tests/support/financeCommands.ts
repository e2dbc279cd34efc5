/**
 * The randomised finance workflow's sequences (issue 31 §9): the commands of tests/support/financeModel.ts
 * (every operation of FINANCE.md §7 by a role §5 allows) and tests/support/financeRaces.ts (conflicting requests at
 * once, kill -9), weighted, and the property every sequence must keep. Used by
 * tests/server/finance-simulation.test.ts and tests/simulate.ts.
 */
import fc from "fast-check";
import {
  DeliverLesson, EditPa, IssuePa, OverpaidCreditNote, Pay, PayByCreditNote, SuspensionCreditNote, VoidCreditNote, VoidPaidPa,
  VoidReceipt, VoidUnpaidPa, WithdrawalRefund, type PayAmount, type PayMode, type Simulation,
} from "./financeModel.ts";
import { DepositRace, KillServer, RefundRace } from "./financeRaces.ts";
import { PAUSE_POINTS } from "../../server/finance/testPause.ts";

/** The commands' arbitraries; `maxCommands` bounds a sequence's length; `kills`: include kill -9 (PostgreSQL). */
export function financeCommands(maxCommands: number, kills = false) {
  const student = fc.nat(3);
  const index = fc.nat(7);
  const issue = fc.tuple(student, fc.boolean(), fc.boolean()).map(([s, d, x]) => new IssuePa(s, d, x));
  const pay = fc
    .tuple(
      index,
      fc.constantFrom("cash" as const, "credit_card" as const, "nets" as const),
      fc.constantFrom<PayAmount>("part", "rest", "rest", "over"),
      fc.constantFrom<PayMode>("once", "once", "same key twice", "same key at once", "two at once", "twice without a key"),
      fc.constantFrom("front_desk" as const, "finance_staff" as const),
    )
    .map(([p, method, amount, mode, role]) => new Pay(p, method, amount, mode, role));
  const payByCreditNote = fc.tuple(index, fc.boolean()).map(([c, race]) => new PayByCreditNote(c, race));
  const overpaid = fc.tuple(index, fc.constantFrom("issued" as const, "issued" as const, "rejected" as const)).map(([x, d]) => new OverpaidCreditNote(x, d));
  const edit = fc
    .tuple(index, fc.boolean(), fc.constantFrom("discount" as const, "lessons" as const), fc.constantFrom("front_desk" as const, "ops_manager" as const, "finance_staff" as const))
    .map(([p, inv, c, role]) => new EditPa(p, inv, c, role));
  const suspension = fc
    .tuple(student, fc.constantFrom(1 as const, 2 as const), fc.constantFrom("finance_staff" as const, "finance_staff" as const, "finance_manager" as const), fc.constantFrom("issued" as const, "issued" as const, "rejected" as const))
    .map(([s, n, filler, decision]) => new SuspensionCreditNote(s, n, filler, decision));
  const refund = fc
    .tuple(student, fc.boolean(), fc.constantFrom("refunded" as const, "refunded" as const, "refunded" as const, "rejected_by_sale" as const, "rejected_by_finance" as const))
    .map(([s, c, end]) => new WithdrawalRefund(s, c, end));
  // Repeated entries weigh more: most commands need a PA, a payment or a credit note made by an earlier one.
  return fc.commands(
    [
      issue, issue, issue, issue,
      pay, pay, pay, pay, pay,
      edit,
      payByCreditNote, payByCreditNote,
      index.map((x) => new VoidReceipt(x)),
      index.map((x) => new VoidUnpaidPa(x)),
      index.map((x) => new VoidPaidPa(x)),
      overpaid, overpaid,
      suspension, suspension,
      refund,
      index.map((x) => new VoidCreditNote(x)),
      student.map((s) => new DeliverLesson(s)),
      student.map((s) => new RefundRace(s)),
      student.map((s) => new DepositRace(s)),
      ...(kills ? [fc.tuple(index, fc.nat(60), fc.constantFrom(null, ...PAUSE_POINTS)).map(([p, ms, at]) => new KillServer(p, ms, at))] : []),
    ],
    { maxCommands, size: "max" },
  );
}

/** The property: every sequence of commands, run on fresh students, keeps every invariant. */
export function financeProperty(sim: Simulation, maxCommands: number) {
  return fc.asyncProperty(financeCommands(maxCommands, sim.kills), async (cmds) => {
    try {
      await fc.asyncModelRun(() => sim.world(), cmds);
      await sim.endOfSequence();
    } catch (e) {
      sim.dirty = true;
      sim.options.onFailure?.(e, cmds.toString());
      throw e;
    }
  });
}
