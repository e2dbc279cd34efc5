/**
 * The randomised finance workflow (issue 31 §9; commands in tests/support/financeCommands.ts): a few random
 * sequences of issue, edit, pay (part, over, double submits with and without a key, two at once), pay by credit
 * note, void receipt / unpaid PA / paid PA, overpaid and suspension credit notes (approved, rejected, four eyes),
 * void credit note, deposits deducted, lessons delivered, withdrawal refunds (refunded or rejected) and races of
 * conflicting money-out requests, each by a role FINANCE.md §5 allows, with the invariants of FINANCE.md §6 and the
 * reconciliation read after every command. On the PostgreSQL lane the "at once" commands really run
 * concurrently; the kill -9 of a child server is `npm run simulate`'s (a child server takes too long to start for
 * the suite). A failure shrinks to its shortest sequence and prints it with its seed.
 *
 * In the suite the sequences come from one fixed seed (SIMULATION_SEED overrides it), so a run is repeatable and a
 * red CI names a sequence anyone can replay; `npm run simulate` draws new seeds to look for new ones. Defects it
 * found and that are now tested and mended: a void of a paid PA left its invoice's amount received; voiding a receipt
 * ignored the credit notes made from its money; a void of a paid PA after a suspension credit note credited those
 * lessons twice in the ledger; the reconciliation reported every payment by credit note as a difference. */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { startTestServer } from "../support/auth.ts";
import { Simulation } from "../support/financeModel.ts";
import { financeProperty } from "../support/financeCommands.ts";

/** The suite's fixed seed (any seed must pass; a fixed one makes a red run repeatable). */
const SUITE_SEED = 20261127;

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
    await fc.assert(financeProperty(sim, 10), { numRuns: 6, endOnFailure: false, seed: Number(process.env.SIMULATION_SEED ?? SUITE_SEED) });
  }, 240_000);
});
