/**
 * The randomised workflow of the finance operations (issue 31 §9; model in tests/support/financeModel.ts): a few
 * random sequences of issue, pay (double submits, two at once), void, overpaid and suspension credit notes,
 * withdrawal refunds, each by a role FINANCE.md §5 allows, with the invariants of FINANCE.md §6 read after every
 * command. On the PostgreSQL lane the "at once" commands really run concurrently. A failure shrinks to its
 * shortest sequence and prints it with its seed (replay: `npm run simulate -- --runs <numRuns> --seed=<seed>`).
 * The long run is `npm run simulate -- --runs N`.
 *
 * KNOWN DEFECT this test finds (left asserting the right behaviour, reported for a decision; not fixed here — the
 * service is another helper's): a void of a paid PA voids its payments but leaves its invoice's paidAmount at the
 * amount received, so "for every invoice Σ non-voided payments = amount received" (FINANCE.md §6) breaks. Shortest
 * sequence, on both lanes: [IssuePa(student 0), Pay(pa 0, cash, rest, once, front_desk), VoidPaidPa(0)] →
 * {"invoice received":["INV-BME-2026-00111"]}. The run fails whenever a sequence voids a paid PA.
 * Two more, found by `npm run simulate` (voiding a receipt ignores what was already credited from its money):
 * - [IssuePa(student 0), Pay(pa 2, cash, rest, once, front_desk), SuspensionCreditNote(student 0, 1 lesson), VoidReceipt(0)]
 *   → the suspension credit note stays issued for money no longer received: {"student: money out over money in": [student]};
 * - [IssuePa(student 0), Pay(pa 0, cash, over, once, front_desk), OverpaidCreditNote(pa 0), VoidReceipt(0)]
 *   → the overpaid credit note stays issued after the overpaying receipt is voided: {"overpaid credit note over the excess": ["CN-BME-2026-00004"]}.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { startTestServer } from "../support/auth.ts";
import { financeProperty, Simulation } from "../support/financeModel.ts";

describe.each(databaseLanes())("randomised finance workflow [%s]", (lane) => {
  let sim: Simulation;

  beforeAll(async () => {
    sim = new Simulation(() => startTestServer(lane));
    await sim.start();
  });
  afterAll(async () => {
    await sim?.close();
  });

  it("random sequences of the finance operations keep every invariant after every command", async () => {
    await fc.assert(financeProperty(sim, 10), { numRuns: 6, endOnFailure: false });
  }, 240_000);
});
