/**
 * The browser's side of FINANCE.md §1 "Idempotent." against the in-process server: every money call of the JSON
 * API client carries a fresh Idempotency-Key (one call, one user action), its retry after a token refresh and a
 * repeat of a call whose answer was lost resend the same key (so the server records it once), and other calls
 * carry none.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startUiServer, type UiServer } from "../support/ui-server.ts";
import { installDomGaps, useServer } from "./shell-support.ts";
import { signIn } from "../../src/app/auth.ts";
import { api } from "../../src/app/api.ts";
import { getSession, setSession } from "../../src/app/session.ts";

let server: UiServer;
beforeAll(async () => {
  installDomGaps();
  server = await startUiServer();
});
afterAll(async () => server?.close());

beforeEach(async () => {
  useServer(server.baseUrl);
  await signIn("admin", "Demo@12345");
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Each request the app sends (passed on to the server): method, path and its Idempotency-Key. With `loseAnswers`
 * each request reaches the server but its answer is lost on the way back (a timeout, a dropped connection).
 */
async function sent(call: () => Promise<unknown>, loseAnswers = false): Promise<{ method: string; path: string; key: string | null }[]> {
  const seen: { method: string; path: string; key: string | null }[] = [];
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    seen.push({ method: init?.method ?? "GET", path: url.replace(server.baseUrl, "").split("?")[0]!, key: new Headers(init?.headers).get("Idempotency-Key") });
    const answer = await real(input, init);
    if (loseAnswers) throw new TypeError("Failed to fetch");
    return answer;
  });
  try {
    await call().catch(() => undefined); // the answer does not matter here, only what was sent
  } finally {
    spy.mockRestore();
  }
  return seen;
}

describe("money calls carry an Idempotency-Key", () => {
  it("a fresh key per call, and the retry after a token refresh resends the same key", async () => {
    const s = getSession()!;
    setSession({ ...s, accessToken: `${s.accessToken.slice(0, -4)}AAAA` }); // the first try gets a 401
    const first = await sent(() => api("POST", "/finances/payment-advices/void-unpaid", { paymentAdviceIds: [] }));
    expect(first.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v2/finances/payment-advices/void-unpaid",
      "POST /api/v2/auth/access-token",
      "POST /api/v2/finances/payment-advices/void-unpaid",
    ]);
    expect(first[0]!.key).toMatch(UUID);
    expect(first[2]!.key).toBe(first[0]!.key);
    expect(first[1]!.key).toBeNull();

    const second = await sent(() => api("POST", "/finances/payment-advices/void-unpaid", { paymentAdviceIds: [] }));
    expect(second).toHaveLength(1);
    expect(second[0]!.key).toMatch(UUID);
    expect(second[0]!.key).not.toBe(first[0]!.key);
  });

  it("a call whose answer was lost is sent again with the same key; once answered, the next call gets a fresh one", async () => {
    const body = { paymentAdviceIds: [] };
    const lost = await sent(() => api("POST", "/finances/payment-advices/void-unpaid", body), true);
    expect(lost).toHaveLength(1);
    const again = await sent(() => api("POST", "/finances/payment-advices/void-unpaid", body));
    expect(again[0]!.key).toBe(lost[0]!.key);
    const next = await sent(() => api("POST", "/finances/payment-advices/void-unpaid", body));
    expect(next[0]!.key).toMatch(UUID);
    expect(next[0]!.key).not.toBe(lost[0]!.key);
    const other = await sent(() => api("POST", "/finances/payment-advices/void-unpaid", { paymentAdviceIds: [], reason: "another action" }));
    expect(other[0]!.key).not.toBe(next[0]!.key);
  });

  it("every money method and area has one; reads and other areas have none", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const calls: [string, string][] = [
      ["POST", `/finances/invoices/${id}/payments`],
      ["PATCH", "/finances/payment-advices/void-paid-pa"],
      ["PUT", `/credit-notes/${id}`],
      ["PATCH", `/refund/${id}/change-refund-status`],
      ["POST", "/refund"],
      ["GET", `/finances/invoices/${id}`],
      ["GET", "/users/me"],
      ["POST", "/classes/transfers"],
    ];
    const keys: (string | null)[] = [];
    for (const [method, path] of calls) keys.push((await sent(() => api(method, path, method === "GET" ? undefined : {})))[0]!.key);
    expect(keys.map((k) => (k === null ? "none" : UUID.test(k) ? "key" : k))).toEqual(["key", "key", "key", "key", "key", "none", "none", "none"]);
  });
});
