/**
 * Issue 39 §2–4 on the demo data: a family's statement (siblings) ends on the family's ledger balance and each
 * sibling's on their own; overdue reminders go out once per PA and schedule step (the job run twice a day and on
 * later days), with the company's late-fee note, logged on the PA, and a held PA gets none; a month of one
 * company's ledger exports as journal lines and as Xero manual journals that balance, match journal_lines and come
 * out byte for byte the same a second time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { dayjs, DATE_FORMAT } from "../../src/domain/dates.ts";
import { sendDueReminders, upcomingReminders } from "../../server/finance/reminders.ts";
import { createPdfMaker } from "../../server/finance/pdfMaker.ts";
import { parseCsv } from "../../server/finance/bankStatementFile.ts";

const plus = (day: string, n: number) => dayjs(day, DATE_FORMAT).add(n, "day").format(DATE_FORMAT);

describe.each(databaseLanes())("statements, reminders and the accounting export [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  const paper = { pdfMaker: createPdfMaker({ timeLimitMs: 60_000, workers: 1 }) };

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["front_desk", "finance_staff", "finance_manager"]) token[role] = (await signIn(server.app, role)).accessToken;
  });
  afterAll(async () => {
    await paper.pdfMaker.close();
    await server?.close();
  });

  const rows = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows;
  /** The ledger's balance of students with a company: receivable less customer credit. */
  const ledgerBalance = async (ids: string[], companyId: string) =>
    (
      await rows<{ b: string }>(
        `select coalesce(sum(case when account = 'receivable' then debit - credit when account = 'customer_credit' then debit - credit else 0 end), 0)::text as b
         from journal_lines where "studentId" = any($1::uuid[]) and "companyId" = $2`,
        [ids, companyId],
      )
    )[0]!.b;

  it("a family's statement (siblings) runs to the family's ledger balance; each sibling's to their own; printable as a PDF", async () => {
    // the demo sibling pair with the most ledger entries with one company
    const [pair] = await rows<{ a: string; b: string; companyId: string }>(
      `select u.id as a, (s->>'id')::uuid as b, e."companyId" from users u cross join lateral jsonb_array_elements(u.siblings) s
         join journal_entries e on e."studentId" in (u.id, (s->>'id')::uuid)
       where u.type = 'student' group by 1, 2, 3 order by count(*) desc, 1 limit 1`,
    );
    expect(pair, "a demo sibling pair with ledger entries").toBeDefined();
    const family = await api(server.app, "GET", `/finances/statements/${pair!.a}?family=1&companyId=${pair!.companyId}`, token.front_desk);
    expect(family.statusCode, family.body).toBe(200);
    const statement = family.json().data;
    expect(statement.students.map((s: { id: string }) => s.id).sort()).toEqual([pair!.a, pair!.b].sort());
    expect(statement.rows.length).toBeGreaterThan(0);
    expect(statement.balance).toBe(centsToNumeric(numericToCents(await ledgerBalance([pair!.a, pair!.b], pair!.companyId))!));
    // the running balance is the sum of the rows
    const sum = statement.rows.reduce((s: number, r: { charge: string; credit: string }) => s + numericToCents(r.charge)! - numericToCents(r.credit)!, 0);
    expect(centsToNumeric(sum)).toBe(statement.balance);
    expect(statement.rows.at(-1).balance).toBe(statement.balance);
    let each = 0;
    for (const id of [pair!.a, pair!.b]) {
      const own = (await api(server.app, "GET", `/finances/statements/${id}?companyId=${pair!.companyId}`, token.finance_staff)).json().data;
      expect(own.students.map((s: { id: string }) => s.id)).toEqual([id]);
      expect(own.balance).toBe(centsToNumeric(numericToCents(await ledgerBalance([id], pair!.companyId))!));
      each += numericToCents(own.balance)!;
    }
    expect(centsToNumeric(each)).toBe(statement.balance);

    const pdf = await api(server.app, "GET", `/finances/statements/${pair!.a}?family=1&companyId=${pair!.companyId}&format=pdf`, token.front_desk);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await api(server.app, "GET", `/finances/statements/${pair!.companyId}`, token.front_desk)).json().message).toBe("Student not found.");
  });

  it("overdue reminders go out once per schedule step, with the late-fee note, the PA as PDF and its PayNow QR, logged on the PA; a held PA gets none", async () => {
    // two unpaid BME PAs with something to pay and a parent's e-mail, none reminded yet
    const pas = await rows<{ id: string; name: string; dueDate: string }>(
      `select pa.id, pa.name, pa."dueDate"::text as "dueDate" from payment_advices pa join companies c on c.id = pa."companyId" join users u on u.id = pa."studentId"
       where c."shortName" = 'BME' and pa."paymentStatus" = 'unpaid' and pa.status = 'active' and pa.name is not null and pa."dueDate" is not null
         and (pa."paymentSummaryStatic"->>'totalPayable')::numeric > 0 and not exists (select 1 from invoice_payments ip join invoices i on i.id = ip."invoiceId" where i."paymentAdviceId" = pa.id)
         and exists (select 1 from jsonb_array_elements(u.parents) p where p->>'email' like '%@%')
       order by pa."dueDate" desc, pa.name limit 2`,
    );
    expect(pas.length).toBe(2);
    const [pa, held] = pas as [(typeof pas)[0], (typeof pas)[0]];
    expect((await api(server.app, "PUT", `/finances/reminders/${held.id}/hold`, token.finance_staff, { held: true })).statusCode).toBe(200);
    expect((await api(server.app, "PUT", `/finances/reminders/${held.id}/hold`, token.front_desk, { held: false })).statusCode).toBe(403);
    expect((await api(server.app, "PUT", `/finances/reminders/${held.id}/hold`, token.finance_staff, {})).statusCode).toBe(400);

    // the day before step 3, tomorrow's list shows it (and the held one, marked held)
    const upcoming = await upcomingReminders(server.db, plus(pa.dueDate, 2));
    expect(upcoming.reminders.find((r) => r.paymentAdviceId === pa.id)).toMatchObject({ step: 3, held: false });
    const mails = async (id: string) =>
      rows<{ subject: string; body: string; step: number; attachments: Array<{ filename: string; contentType: string; contentBase64: string; cid?: string }> | null }>(
        `select subject, body, (payload->>'reminderStep')::int as step, payload->'attachments' as attachments from outbox where payload->>'paymentAdviceId' = $1 and payload ? 'reminderStep' order by "createdAt"`,
        [id],
      );

    // two runs at once (two instances) the first day, then again that day and on later days
    await Promise.all([sendDueReminders(server.db, paper, plus(pa.dueDate, 3)), sendDueReminders(server.db, paper, plus(pa.dueDate, 3))]);
    for (const [day, steps] of [[plus(pa.dueDate, 3), [3]], [plus(pa.dueDate, 4), [3]], [plus(pa.dueDate, 10), [3, 10]], [plus(pa.dueDate, 11), [3, 10]]] as const) {
      await sendDueReminders(server.db, paper, day);
      expect((await mails(pa.id)).map((m) => m.step), `after the run of ${day}`).toEqual(steps);
    }
    const [first] = await mails(pa.id);
    expect(first!.subject).toBe(`Reminder: Payment Advice ${pa.name} is overdue`);
    expect(first!.body).toContain("Late payment fee of $10 per week applies.");
    // the PA's paper as a PDF, and its PayNow QR shown in the mail (the unpaid-PA e-mail's parts)
    expect(first!.attachments!.map((a) => [a.filename, a.contentType])).toEqual([[`${pa.name}.pdf`, "application/pdf"], [`${pa.name}-paynow.png`, "image/png"]]);
    expect(Buffer.from(first!.attachments![0]!.contentBase64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    expect(first!.body).toContain(`src="cid:${first!.attachments![1]!.cid}"`);
    expect(first!.body).toMatch(/by PayNow: scan this QR code/);
    expect((await rows(`select 1 from payment_advice_logs where "paymentAdviceId" = $1 and type = 'update' and "valueAfter" ? 'reminder'`, [pa.id])).length).toBe(2);

    for (const n of [3, 10, 11]) await sendDueReminders(server.db, paper, plus(held.dueDate, n));
    expect(await mails(held.id)).toEqual([]);
  });

  it("only the finance manager edits the ledger's account codes: finance staff's edit is refused and changes nothing; staff still edit the other settings", async () => {
    const gql = (role: string, query: string, variables: Record<string, unknown>) =>
      server.app.inject({ method: "POST", url: "/v1/graphql", headers: { authorization: `Bearer ${token[role]}` }, payload: { query, variables } });
    const update = `mutation ($id: uuid!, $value: jsonb!) { update_system_settings_by_pk(pk_columns: { id: $id }, _set: { value: $value }) { id value } }`;
    const setting = async (key: string) => (await rows<{ id: string; value: Record<string, string> }>(`select id, value from system_settings where key = $1 and "companyId" is null`, [key]))[0]!;
    const codes = await setting("ledgerAccountCodes");
    const read = await gql("finance_staff", `query ($id: uuid!) { system_settings_by_pk(id: $id) { value } }`, { id: codes.id });
    expect(read.json().data.system_settings_by_pk.value.receivable).toBe(codes.value.receivable);

    const refused = await gql("finance_staff", update, { id: codes.id, value: { ...codes.value, receivable: "999" } });
    expect(refused.json().data?.update_system_settings_by_pk ?? null).toBeNull();
    expect((await setting("ledgerAccountCodes")).value.receivable).toBe(codes.value.receivable);

    const reminders = await setting("reminderSchedule");
    const staffEdit = await gql("finance_staff", update, { id: reminders.id, value: reminders.value });
    expect(staffEdit.json().data.update_system_settings_by_pk.id, staffEdit.body).toBe(reminders.id);

    const managerEdit = await gql("finance_manager", update, { id: codes.id, value: { ...codes.value, receivable: "611" } });
    expect(managerEdit.json().data.update_system_settings_by_pk.value.receivable, managerEdit.body).toBe("611");
    await gql("finance_manager", update, { id: codes.id, value: codes.value });
  });

  it("a Xero export over 300 lines comes in parts of whole, balanced journals: refused without a part, each part asked for by number", async () => {
    // the company's busiest year of ledger days: more journal lines than one Xero file takes
    const [span] = await rows<{ companyId: string; from: string; to: string }>(
      `select "companyId", min(day)::text as from, least(max(day), min(day) + 365)::text as to from journal_lines group by 1 order by count(*) desc limit 1`,
    );
    const url = `/finances/ledger-export?companyId=${span!.companyId}&from=${span!.from}&to=${span!.to}&format=xero`;
    const whole = await api(server.app, "GET", url, token.finance_manager);
    expect(whole.statusCode, whole.body).toBe(409);
    const parts = Number(whole.json().errors.parts);
    expect(parts).toBeGreaterThan(1);
    expect(whole.json().message).toMatch(new RegExp(`^Xero imports at most 300 lines a file: these \\d+ journal lines come as ${parts} files \\(parts 1 to ${parts}\\); import each of them\\.$`));
    const seen = new Set<string>();
    let total = 0;
    for (let part = 1; part <= parts; part++) {
      const file = await api(server.app, "GET", `${url}&part=${part}`, token.finance_manager);
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers["content-disposition"]).toContain(`-part-${part}-of-${parts}.csv`);
      const [head, ...journal] = parseCsv(file.body);
      expect(head![0]).toBe("*Narration");
      expect(journal.length).toBeGreaterThan(0);
      expect(journal.length).toBeLessThanOrEqual(300);
      const byJournal = new Map<string, number>();
      for (const r of journal) byJournal.set(`${r[0]}|${r[1]}`, (byJournal.get(`${r[0]}|${r[1]}`) ?? 0) + numericToCents(r[5]!)!);
      // every journal whole in one part (none met in an earlier one) and balanced
      for (const [key, sum] of byJournal) {
        expect(seen.has(key), key).toBe(false);
        expect(sum, key).toBe(0);
      }
      byJournal.forEach((_, key) => seen.add(key));
      total += journal.length;
    }
    expect(total).toBeGreaterThan(300);
    const beyond = await api(server.app, "GET", `${url}&part=${parts + 1}`, token.finance_manager);
    expect([beyond.statusCode, beyond.json().message]).toEqual([400, `There are ${parts} parts for this range: choose a part from 1 to ${parts}.`]);
  });

  it("a month of the ledger exports as journal lines and Xero manual journals that balance, match journal_lines and repeat byte for byte", async () => {
    const [month] = await rows<{ companyId: string; from: string; to: string; n: number; debit: string; credit: string }>(
      `select "companyId", date_trunc('month', day)::date::text as from, (date_trunc('month', day) + interval '1 month - 1 day')::date::text as to,
         count(*)::int as n, sum(debit)::text as debit, sum(credit)::text as credit
       from journal_lines group by 1, 2, 3 order by count(*) desc limit 1`,
    );
    const url = (format: string) => `/finances/ledger-export?companyId=${month!.companyId}&from=${month!.from}&to=${month!.to}&format=${format}`;
    expect((await api(server.app, "GET", url("lines"), token.finance_staff)).statusCode).toBe(403);
    const lines = await api(server.app, "GET", url("lines"), token.finance_manager);
    expect(lines.statusCode, lines.body).toBe(200);
    const body = parseCsv(lines.body);
    expect(body[0]).toEqual(["Date", "Company", "Entry", "Operation", "Document Type", "Document No.", "Student", "Account", "Method", "Account Code", "Debit", "Credit"]);
    const data = body.slice(1);
    expect(data.length).toBe(month!.n);
    const total = (i: number) => centsToNumeric(data.reduce((s, r) => s + numericToCents(r[r.length - i]!)!, 0));
    expect([total(2), total(1)]).toEqual([month!.debit, month!.credit]);
    expect(month!.debit).toBe(month!.credit);

    const xero = await api(server.app, "GET", url("xero"), token.finance_manager);
    expect(xero.statusCode).toBe(200);
    const [head, ...journal] = parseCsv(xero.body);
    expect(head).toEqual(["*Narration", "*Date", "Description", "*AccountCode", "*TaxRate", "*Amount", "TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2"]);
    const byJournal = new Map<string, number>();
    for (const r of journal) byJournal.set(`${r[0]}|${r[1]}`, (byJournal.get(`${r[0]}|${r[1]}`) ?? 0) + numericToCents(r[5]!)!);
    expect(byJournal.size).toBeGreaterThan(1);
    expect([...byJournal.values()].every((v) => v === 0)).toBe(true);
    // per account code, the month's net movement is journal_lines' (receivable's code, 610 by default)
    const [receivable] = await rows<{ net: string }>(`select sum(debit - credit)::text as net from journal_lines where "companyId" = $1 and day between $2 and $3 and account = 'receivable'`, [month!.companyId, month!.from, month!.to]);
    expect(centsToNumeric(journal.filter((r) => r[3] === "610").reduce((s, r) => s + numericToCents(r[5]!)!, 0))).toBe(receivable!.net);

    expect((await api(server.app, "GET", url("xero"), token.finance_manager)).body).toBe(xero.body);
    expect((await api(server.app, "GET", url("lines"), token.finance_manager)).body).toBe(lines.body);
    const backwards = await api(server.app, "GET", `/finances/ledger-export?companyId=${month!.companyId}&from=${month!.to}&to=${month!.from}`, token.finance_manager);
    expect([backwards.statusCode, backwards.json().message]).toEqual([400, "Choose a date range of at most 366 days, the start not after the end."]);
  });
});
