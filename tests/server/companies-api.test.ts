/**
 * POST /companies and PUT /companies/{id} (spec part 2 §7, issue 19 §3): the company form's saves, with
 * the UEN, GST number, colour, phone and logo rules; bad input changes nothing; only the roles of the policy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");

describe.each(databaseLanes())("company calls under /api/v2 [%s]", (lane) => {
  let server: TestServer;
  let finance: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    finance = (await signIn(server.app, "finance_manager")).accessToken;
  });
  afterAll(async () => {
    await server?.close();
  });

  const company = (name: string) => ({
    name,
    shortName: "NWA",
    uen: "202412345k",
    address: "8 Marina View, #20-01, Singapore 018960",
    telNo: "+65 6123 4567",
    hasGstNo: true,
    gstRefNo: "m90371234x",
    colorCode: "#FA8C16",
    paNotes: `<p>Pay by PayNow.</p><img src=x onerror="alert(1)"><script>alert(2)</script>`,
    logoUrl: null,
  });
  const row = async (id: string) => (await server.db.query<Record<string, unknown>>(`select * from companies where id = $1`, [id])).rows[0];
  const count = async () => (await server.db.query<{ n: number }>(`select count(*)::int as n from companies`)).rows[0]!.n;

  it("creates a company and saves an edit: UEN and GST number in capitals, PA notes sanitised, who saved it kept", async () => {
    const created = await api(server.app, "POST", "/companies", finance, company("North West Academy Pte Ltd"));
    expect(created.statusCode).toBe(201);
    const { data } = created.json();
    expect(data).toMatchObject({ name: "North West Academy Pte Ltd", uen: "202412345K", gstRefNo: "M90371234X", hasGstNo: true, status: "active" });
    const saved = await row(data.id);
    expect(saved!.paNotes).toBe("<p>Pay by PayNow.</p>");
    expect(saved!.createdBy).toEqual(expect.any(String));

    const edited = await api(server.app, "PUT", `/companies/${data.id}`, finance, { ...company("North West Academy Pte Ltd"), shortName: "NWA2", hasGstNo: false, gstRefNo: "", payNowUen: "t08ll1234a" });
    expect(edited.statusCode).toBe(200);
    expect(await row(data.id)).toMatchObject({ shortName: "NWA2", hasGstNo: false, gstRefNo: null, payNowUen: "T08LL1234A" });
  });

  it("refuses bad input with the field's message and writes nothing", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "" }, "name", "Please input Company Name!"],
      [{ uen: "12345" }, "uen", "Please enter a valid UEN (e.g. 201912345K)."],
      [{ payNowUen: "PAYNOW-1" }, "payNowUen", "Please enter a valid PayNow UEN (e.g. 201912345K), or leave it blank to use the UEN."],
      [{ hasGstNo: true, gstRefNo: null }, "gstRefNo", "Please input GST Reg. No.!"],
      [{ gstRefNo: "GST-1" }, "gstRefNo", "Please enter a valid GST Reg. No. (e.g. M90371234X or the UEN)."],
      [{ colorCode: "blue" }, "colorCode", "Please enter a colour code like #1677FF."],
      [{ logoUrl: "https://evil.example/logo.png" }, "logoUrl", "The logo must be an image uploaded to the media store."],
      [{ logoUrl: "/media/public?key=companies%2Fnever-uploaded.png" }, "logoUrl", "The logo must be an image uploaded to the media store."],
    ];
    for (const [change, field, message] of cases) {
      const res = await api(server.app, "POST", "/companies", finance, { ...company("Bad Co"), ...change });
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toMatchObject({ success: false, message, errors: { [field]: message } });
    }
    expect(await count()).toBe(before);

    // the database keeps the phone rule whoever writes (GraphQL too)
    await expect(server.db.query(`insert into companies (name, "telNo") values ('Phone Co', 'abc')`)).rejects.toThrow(/companies_tel_no_check/);
  });

  it("takes a logo uploaded to the media store", async () => {
    const presign = (await api(server.app, "GET", `/media/put-presigned-url?key=companies/logo.png`, finance)).json().data;
    const put = await server.app.inject({ method: "PUT", url: presign.url.replace(/^https?:\/\/[^/]+/, ""), payload: PNG, headers: { "content-type": "image/png" } });
    expect(put.statusCode).toBeLessThan(300);
    const logoUrl = `/media/public?key=${encodeURIComponent(presign.keyPath)}`;
    const res = await api(server.app, "POST", "/companies", finance, { ...company("Logo Co Pte Ltd"), logoUrl });
    expect(res.statusCode).toBe(201);
    expect((await row(res.json().data.id))!.logoUrl).toBe(logoUrl);
  });

  it("an unknown or deleted company is not found; roles without the call are refused", async () => {
    const missing = await api(server.app, "PUT", `/companies/00000000-0000-4000-8000-000000000000`, finance, company("Ghost"));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("Company not found.");
    const before = await count();
    for (const role of ["front_desk", "ops_manager", "hr"]) {
      const token = (await signIn(server.app, role)).accessToken;
      expect((await api(server.app, "POST", "/companies", token, company(`${role} Co`))).statusCode, role).toBe(403);
    }
    expect(await count()).toBe(before);
  });
});
