/**
 * The HTTP API of a UI test's server (tests/support/ui-server.ts), called as a role: a UI test builds the state
 * its screen needs through the calls staff make. Each caller signs in from its own address (the server trusts
 * the proxy header in tests), so the per-address sign-in limit is not reached.
 */
import { expect } from "vitest";
import { DEMO_PASSWORD, nextAddress } from "./auth.ts";
import { paFields, type ClassPick } from "./finance.ts";

/** A call's status, message and data (any: each test reads what it needs of a reply). */
export type Caller = (method: string, path: string, body?: unknown) => Promise<{ status: number; data: any; message?: string }>;

export async function callerAs(baseUrl: string, username: string): Promise<Caller> {
  const res = await fetch(`${baseUrl}/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": nextAddress() },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  expect(res.status, `sign-in as ${username}`).toBe(200);
  const token = ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
  return async (method, path, body) => {
    const reply = await fetch(`${baseUrl}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await reply.json()) as { data?: unknown; message?: string };
    return { status: reply.status, data: json.data, message: json.message };
  };
}

/** A PA for the class issued by `frontDesk` and paid in full in cash: the PA and its receipt. */
export async function paidPaVia(frontDesk: Caller, c: ClassPick, studentId: string): Promise<{ pa: { id: string; updatedAt: string }; receiptId: string }> {
  const fields = paFields(c, studentId);
  const draft = await frontDesk("POST", "/finances/payment-advices/init", fields);
  expect(draft.status, draft.message).toBe(201);
  const issued = await frontDesk("PUT", `/finances/payment-advices/${draft.data.id}`, { ...fields, action: "issue", updatedAt: draft.data.updatedAt });
  expect(issued.status, issued.message).toBe(200);
  const paid = await frontDesk("POST", "/finances/invoices", { paymentAdviceId: issued.data.id, payment: { amount: issued.data.summary.total, paymentMethod: "cash" } });
  expect(paid.status, paid.message).toBe(201);
  return { pa: issued.data, receiptId: paid.data.receipt.id };
}
