/**
 * Issue 35: PayNow on payment advices and bank statements matched to them. The paper's QR image read back
 * module by module is the QR of the PayNow payload for the PA's balance due (the payload's own format is
 * tests/unit/paynow.test.ts); the e-mail to parents shows it inline. A statement of 50 lines — exact, partial
 * and over credits, lines naming no PA or a paid one, another company's PAs, debits — is imported, matched,
 * confirmed in bulk (payments by qr_code with receipts, on the daily closing, the ledger reconciled), and
 * imported and confirmed again without recording anything twice.
 */
import { inflateSync } from "node:zlib";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { centsToNumeric, numericToCents } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { payNowPayload } from "../../src/domain/finance/paynow.ts";
import { reconcile } from "../../server/finance/reconcile.ts";

/** A PNG (8-bit greyscale, RGB or RGBA, not interlaced) → width, height and whether each pixel is dark. */
function readPng(png: Buffer): { width: number; height: number; dark: (x: number, y: number) => boolean } {
  let at = 8;
  let width = 0, height = 0, channels = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9]!]!;
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const p = left + up - upLeft;
      const paeth = Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft) ? left : Math.abs(p - up) <= Math.abs(p - upLeft) ? up : upLeft;
      pixels[y * stride + x] = (v + [0, left, up, (left + up) >> 1, paeth][filter]!) & 0xff;
    }
  }
  return { width, height, dark: (x, y) => pixels[y * stride + x * channels]! < 128 };
}

describe.each(databaseLanes())("PayNow QR and bank reconciliation [%s]", (lane) => {
  let server: TestServer;
  const token: Record<string, string> = {};
  const today = todayInSingapore();
  const dmy = `${today.slice(8, 10)}/${today.slice(5, 7)}/${today.slice(0, 4)}`;
  let bme: string;

  beforeAll(async () => {
    server = await startTestServer(lane);
    for (const role of ["finance_staff", "front_desk"]) token[role] = (await signIn(server.app, role)).accessToken;
    bme = (await one<{ id: string }>(`select id from companies where "shortName" = 'BME'`)).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) => (await server.db.query<T>(sql, params)).rows[0]!;
  const count = async (sql: string, params: unknown[] = []) => (await one<{ n: number }>(sql, params)).n;
  /**
   * Unpaid PAs of a company, with what is left to pay on each. Not those whose summary bills a deposit: some demo
   * PAs bill one with no deposit row behind it, and paying them in full (by any method) leaves a reconciliation
   * difference this issue does not own (reported to the coordinator).
   */
  const unpaid = async (shortName: string, limit: number) =>
    (
      await server.db.query<{ id: string; name: string; balance: string; studentId: string; qrExpiryDate: string | null }>(
        `select pa.id, pa.name, pa."studentId", pa."qrExpiryDate"::text as "qrExpiryDate",
           ((pa."paymentSummaryStatic"->>'totalPayable')::numeric - coalesce((select sum(ip.amount) from invoice_payments ip join invoices i on i.id = ip."invoiceId"
             where i."paymentAdviceId" = pa.id and i."invoiceStatus" <> 'voided' and ip.status <> 'deleted' and ip."transactionStatus" = 'success'), 0))::text as balance
         from payment_advices pa join companies c on c.id = pa."companyId"
         where c."shortName" = $1 and pa."paymentStatus" = 'unpaid' and pa.status = 'active' and pa."issueDate" <= $2::date
           and coalesce((pa."paymentSummaryStatic"->>'deposit')::numeric, 0) = 0
         order by pa.name limit $3`,
        [shortName, today, limit],
      )
    ).rows;

  it("an unpaid PA's paper: a PayNow QR of its balance due with its number as reference; none once it is paid; the e-mail shows it inline", async () => {
    const withParentEmail = async (p: { studentId: string }) =>
      Boolean((await one<{ n: number }>(`select count(*)::int as n from users, jsonb_array_elements(parents) p where id = $1 and p->>'email' like '%@%'`, [p.studentId])).n);
    const candidates = (await unpaid("BME", 40)).filter((p) => p.qrExpiryDate === null || p.qrExpiryDate >= today);
    const pa = (await Promise.all(candidates.map(async (p) => ((await withParentEmail(p)) ? p : null)))).find(Boolean);
    expect(pa, "an unpaid BME PA of a student with a parent's e-mail in the demo data").toBeDefined();
    const company = await one<{ name: string; uen: string }>(`select name, uen from companies where id = $1`, [bme]);
    const res = await api(server.app, "GET", `/finances/payment-advices/${pa!.id}/paper`, token.finance_staff);
    expect(res.statusCode, res.body).toBe(200);
    const paper = res.json().data;
    expect(paper.payNow).toEqual({ uen: company.uen, amount: pa!.balance, expiry: pa!.qrExpiryDate, reference: pa!.name });
    expect(paper.qrText).toBe(pa!.name);

    // the image, read back module by module, is the QR code of the PayNow payload
    const payload = payNowPayload({ uen: company.uen, amount: numericToCents(pa!.balance)!, expiry: pa!.qrExpiryDate, reference: pa!.name, merchantName: company.name });
    const png = readPng(Buffer.from(paper.qrCodeDataUrl.replace(/^data:image\/png;base64,/, ""), "base64"));
    const modules = QRCode.create(payload, { errorCorrectionLevel: "M" }).modules;
    const side = modules.size + 8; // a quiet zone of four modules each side
    const scale = png.width / side;
    expect(png.width).toBe(png.height);
    const read: boolean[] = [];
    for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) read.push(png.dark(Math.floor((x + 0.5) * scale), Math.floor((y + 0.5) * scale)));
    const expected: boolean[] = [];
    for (let y = -4; y < modules.size + 4; y++)
      for (let x = -4; x < modules.size + 4; x++) expected.push(x >= 0 && y >= 0 && x < modules.size && y < modules.size && modules.get(y, x) === 1);
    expect(read).toEqual(expected);

    // the e-mail to parents: the PDF and the QR inline
    {
      const mail = await api(server.app, "POST", "/finances/email/unpaid-pa-to-parents", token.finance_staff, { paymentAdviceIds: [pa!.id] });
      expect(mail.statusCode, mail.body).toBe(200);
      const queued = await one<{ body: string; payload: { attachments: { filename: string; contentType: string; cid?: string }[] } }>(
        `select body, payload from outbox where payload->>'paymentAdviceId' = $1 order by "createdAt" desc limit 1`,
        [pa!.id],
      );
      expect(queued.body).toContain(`src="cid:paynow-qr"`);
      expect(queued.body).toContain(pa!.name);
      expect(queued.payload.attachments.map((a) => [a.contentType, a.cid ?? null])).toEqual([["application/pdf", null], ["image/png", "paynow-qr"]]);
    }

    const paid = await one<{ id: string; name: string }>(`select id, name from payment_advices where "companyId" = $1 and "paymentStatus" = 'paid' and status = 'active' limit 1`, [bme]);
    const paidPaper = (await api(server.app, "GET", `/finances/payment-advices/${paid.id}/paper`, token.finance_staff)).json().data;
    expect(paidPaper).toMatchObject({ payNow: null, qrCodeDataUrl: null, qrText: paid.name });
  });

  it("a statement of 50 lines: matched exact, partial, over, unknown and other company; confirmed in bulk once; the same file again records nothing", async () => {
    const ours = await unpaid("BME", 16);
    const theirs = await unpaid("SLC", 4);
    expect(ours.length, "unpaid BME PAs in the demo data").toBe(16);
    expect(theirs.length, "unpaid SLC PAs in the demo data").toBe(4);
    const paidPa = await one<{ name: string }>(`select name from payment_advices where "companyId" = $1 and "paymentStatus" = 'paid' and status = 'active' order by name limit 1`, [bme]);
    const exact = ours.slice(0, 8);
    const partial = ours.slice(8, 12);
    const over = ours.slice(12, 16);
    const amount = (p: { balance: string }, delta: number) => centsToNumeric(numericToCents(p.balance)! + delta);
    const rows: string[][] = [
      // the bank's reference as PayNow passes it on, with and without dashes
      ...exact.map((p, i) => [dmy, `PAYNOW OTHR TAN ${i}`, i % 2 ? p.name : p.name.replace(/-/g, ""), amount(p, 0), ""]),
      ...partial.map((p, i) => [dmy, `PAYNOW ${p.name} PART ${i}`, "", amount(p, -1000), ""]),
      ...over.map((p, i) => [dmy, `PAYNOW OVER ${i}`, p.name, amount(p, 500), ""]),
      ...theirs.map((p, i) => [dmy, `PAYNOW WRONG ACCOUNT ${i}`, p.name, amount(p, 0), ""]),
      [dmy, "PAYNOW ALREADY PAID", paidPa.name, "100.00", ""],
      ...Array.from({ length: 19 }, (_, i) => [dmy, `FAST TRANSFER FROM LIM ${i}`, `INV ${1000 + i}`, `${50 + i}.00`, ""]),
      // two identical lines are two payments: both kept
      [dmy, "CASH DEPOSIT", "", "20.00", ""],
      [dmy, "CASH DEPOSIT", "", "20.00", ""],
      ...Array.from({ length: 8 }, (_, i) => [dmy, `GIRO RENT ${i}`, "", "", `${1000 + i}.00`]),
    ];
    expect(rows.length).toBe(50);
    const csv = [
      "Account Statement,DBS Current 012-345678-9",
      "",
      "Transaction Date,Description,Client Reference,Credit Amount,Debit Amount",
      ...rows.map((r) => r.map((c) => (c.includes(",") ? `"${c}"` : c)).join(",")),
    ].join("\r\n");
    const file = { fileName: "dbs-statement.csv", fileBase64: Buffer.from(csv).toString("base64") };
    const mapping = { dateColumn: "Transaction Date", descriptionColumn: "Description", referenceColumn: "Client Reference", creditColumn: "Credit Amount" };
    const credits = 42;

    const preview = await api(server.app, "POST", "/finances/bank-reconciliation/preview", token.finance_staff, { bank: "DBS", ...file });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ headers: ["Transaction Date", "Description", "Client Reference", "Credit Amount", "Debit Amount"], mapping: null });
    expect(preview.json().data.sample).toHaveLength(5);

    // front desk may not reconcile
    expect((await api(server.app, "POST", "/finances/bank-reconciliation/import", token.front_desk, { companyId: bme, bank: "DBS", mapping, ...file })).statusCode).toBe(403);

    const imported = await api(server.app, "POST", "/finances/bank-reconciliation/import", token.finance_staff, { companyId: bme, bank: "DBS", mapping, ...file });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().data).toEqual({ imported: credits, duplicates: 0, skipped: 8 });
    // the mapping is remembered for the bank
    expect((await api(server.app, "POST", "/finances/bank-reconciliation/preview", token.finance_staff, { bank: "dbs", ...file })).json().data.mapping).toEqual(mapping);

    const lines = (await api(server.app, "GET", `/finances/bank-reconciliation/lines?companyId=${bme}`, token.finance_staff)).json().data as {
      id: string; reference: string | null; description: string | null; amount: string; match: { outcome: string; pa: { id: string; name: string } | null; reason: string | null };
    }[];
    expect(lines).toHaveLength(credits);
    const outcomes = lines.reduce<Record<string, number>>((n, l) => ({ ...n, [l.match.outcome]: (n[l.match.outcome] ?? 0) + 1 }), {});
    expect(outcomes).toEqual({ exact: 8, partial: 4, over: 4, wrong_company: 4, unknown: 22 });
    const lineFor = (name: string) => lines.find((l) => l.match.pa?.name === name)!;
    for (const p of exact) expect(lineFor(p.name).match.outcome).toBe("exact");
    expect(lines.find((l) => l.reference === paidPa.name)!.match).toMatchObject({ outcome: "unknown", reason: `${paidPa.name} is not unpaid.` });
    const wrong = lines.filter((l) => l.match.outcome === "wrong_company");
    expect(wrong.map((l) => l.match.reason)).toEqual(expect.arrayContaining(theirs.map((p) => `${p.name} belongs to another company.`)));

    const receiptsBefore = await count(`select count(*)::int as n from receipts`);
    const closing = async () => (await api(server.app, "GET", `/reports/daily-closing?from=${today}&to=${today}&companyId=${bme}`, token.finance_staff)).json().data.totals.qr_code as string | undefined;
    const qrBefore = numericToCents((await closing()) ?? "0")!;
    const matched = lines.filter((l) => l.match.pa);
    // an SLC PA forced onto a BME line is refused; the others are recorded
    const forced = { lineId: wrong[0]!.id, paymentAdviceId: theirs[0]!.id };
    const confirm = (matches: { lineId: string; paymentAdviceId: string }[]) => api(server.app, "POST", "/finances/bank-reconciliation/confirm", token.finance_staff, { matches });
    const confirmed = await confirm([...matched.map((l) => ({ lineId: l.id, paymentAdviceId: l.match.pa!.id })), forced]);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const results = confirmed.json().data.results as { lineId: string; receipt?: { name: string }; error?: string }[];
    expect(results.filter((r) => r.receipt)).toHaveLength(16);
    expect(results.find((r) => r.lineId === forced.lineId)).toEqual({ lineId: forced.lineId, error: "The payment advice belongs to another company than the bank statement." });
    expect(await count(`select count(*)::int as n from receipts`)).toBe(receiptsBefore + 16);

    const status = async (id: string) => (await one<{ s: string }>(`select "paymentStatus" as s from payment_advices where id = $1`, [id])).s;
    for (const p of exact) expect(await status(p.id)).toBe("paid");
    for (const p of partial) expect(await status(p.id)).toBe("unpaid");
    for (const p of over) expect(await status(p.id)).toBe("overpaid");
    for (const p of theirs) expect(await status(p.id)).toBe("unpaid");
    const payment = await one<{ paymentMethod: string; referenceNo: string; amount: string; receipt: string }>(
      `select ip."paymentMethod", ip."referenceNo", ip.amount::text as amount, r.name as receipt from invoice_payments ip join receipts r on r.id = ip."receiptId" join invoices i on i.id = ip."invoiceId"
       where i."paymentAdviceId" = $1 order by ip."createdAt" desc limit 1`,
      [exact[1]!.id],
    );
    expect(payment).toMatchObject({ paymentMethod: "qr_code", amount: exact[1]!.balance, referenceNo: `DBS · ${today} · ${exact[1]!.name} · PAYNOW OTHR TAN 1` });
    expect(payment.receipt).toMatch(/^RC-BME-\d{4}-\d{5}$/);

    // the daily closing shows them under QR Code, and every document still equals its ledger lines
    const total = matched.reduce((s, l) => s + numericToCents(l.amount)!, 0);
    expect(numericToCents((await closing())!)! - qrBefore).toBe(total);
    expect(await reconcile(server.db)).toEqual([]);

    // the same file again: nothing new; the same confirmations again: nothing recorded twice
    const again = await api(server.app, "POST", "/finances/bank-reconciliation/import", token.finance_staff, { companyId: bme, bank: "DBS", mapping, ...file });
    expect(again.json().data).toEqual({ imported: 0, duplicates: credits, skipped: 8 });
    const twice = await confirm(matched.map((l) => ({ lineId: l.id, paymentAdviceId: l.match.pa!.id })));
    expect((twice.json().data.results as { error?: string }[]).every((r) => r.error === "A payment was already recorded for this bank line.")).toBe(true);
    expect(await count(`select count(*)::int as n from receipts`)).toBe(receiptsBefore + 16);
    const open = (await api(server.app, "GET", `/finances/bank-reconciliation/lines?companyId=${bme}`, token.finance_staff)).json().data as { id: string; amount: string; description: string }[];
    expect(open).toHaveLength(credits - 16);
    const recorded = (await api(server.app, "GET", `/finances/bank-reconciliation/lines?companyId=${bme}&status=recorded`, token.finance_staff)).json().data as { receipt: { name: string } }[];
    expect(recorded).toHaveLength(16);

    // an unknown line matched by hand: the PA found by its student's name
    const partialPa = partial[0]!;
    const student = await one<{ fullName: string }>(`select "fullName" from users where id = $1`, [partialPa.studentId]);
    const found = (await api(server.app, "GET", `/finances/bank-reconciliation/payment-advices?companyId=${bme}&q=${encodeURIComponent(student.fullName)}`, token.finance_staff)).json().data as { id: string; balanceDue: string }[];
    const hit = found.find((p) => p.id === partialPa.id)!;
    expect(hit.balanceDue).toBe("10.00");
    const cashDeposit = open.find((l) => l.description === "CASH DEPOSIT")!;
    const byHand = await confirm([{ lineId: cashDeposit.id, paymentAdviceId: partialPa.id }]);
    expect(byHand.json().data.results[0].receipt.name).toMatch(/^RC-BME-/);
    expect(await status(partialPa.id)).toBe("overpaid");
    expect(await reconcile(server.db)).toEqual([]);
  });

  it("a statement with a bad amount or date is refused naming the row, and nothing is imported", async () => {
    const before = await count(`select count(*)::int as n from bank_statement_lines`);
    const mapping = { dateColumn: "Date", descriptionColumn: null, referenceColumn: null, creditColumn: "Credit" };
    const send = (csv: string, fileName = "ocbc.csv") =>
      api(server.app, "POST", "/finances/bank-reconciliation/import", token.finance_staff, { companyId: bme, bank: "OCBC", mapping, fileName, fileBase64: Buffer.from(csv).toString("base64") });
    const badAmount = await send(`Date,Credit\n${dmy},10.00\n${dmy},12.345\n`);
    expect(badAmount.statusCode).toBe(400);
    expect(badAmount.json().message).toBe(`Row 3: "12.345" is not an amount with at most two decimals.`);
    expect((await send(`Date,Credit\n${dmy},10.00\n31/02/2026,5.00\n`)).json().message).toBe(`Row 3: "31/02/2026" is not a date (use DD/MM/YYYY or YYYY-MM-DD).`);
    expect((await send(`Date,Credit\n${dmy},10.00\n`, "statement.pdf")).json().message).toBe("The bank statement must be a CSV or Excel (.xlsx) file.");
    expect((await send(`When,Credit\n${dmy},10.00\n`)).json().message).toBe(`The bank statement has no column "Date".`);
    expect(await count(`select count(*)::int as n from bank_statement_lines`)).toBe(before);
    expect(await count(`select count(*)::int as n from bank_statement_mappings where bank = 'OCBC'`)).toBe(0);
  });
});
