/**
 * POST /broadcast and POST /news (spec part 1 §7; issue 7 §7): create and send through the outbox with a
 * per-recipient log row (broadcast_logs: email, SMS, notification status; news_logs: statusSent);
 * unsubscribed students never get anything; uploaded news recipients are stored and mailed; drafts send
 * nothing; bad input is 400 and writes nothing; only the communication roles may call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";

describe.each(databaseLanes())("communication calls under /api/v2 [%s]", (lane) => {
  let server: TestServer;
  let sales: string;
  let hr: string;
  let branchId: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    sales = (await signIn(server.app, "sales")).accessToken;
    hr = (await signIn(server.app, "hr")).accessToken;
    const { rows } = await server.db.query<{ id: string }>(
      `select "branchId" as id from users where type = 'student' and status = 'active' and subscribe and "branchId" is not null group by "branchId" order by count(*) desc limit 1`,
    );
    branchId = rows[0]!.id;
  });
  afterAll(async () => {
    await server?.close();
  });
  const count = async (sql: string, params: unknown[] = []) => (await server.db.query<{ n: number }>(sql, params)).rows[0]!.n;

  it("POST /broadcast sends to the filtered, subscribed students: one outbox row per address and channel, one log row per recipient", async () => {
    const expected = await count(`select count(*)::int as n from users where type = 'student' and status = 'active' and subscribe and "branchId" = $1`, [branchId]);
    const unsubscribed = await count(`select count(*)::int as n from users where type = 'student' and status = 'active' and not subscribe and "branchId" = $1`, [branchId]);
    expect(expected).toBeGreaterThan(0);
    const outboxBefore = await count(`select count(*)::int as n from outbox`);
    const res = await api(server.app, "POST", "/broadcast", sales, {
      title: "Centre closed on Friday",
      content: "<p>The centre is closed on Friday.</p>",
      via: ["email", "notification"],
      recipientType: "student",
      filterRecipient: { branchIds: [branchId] },
    });
    expect(res.statusCode).toBe(201);
    const { success, data } = res.json();
    expect(success).toBe(true);
    expect(data.recipients).toBe(expected);
    const b = (await server.db.query<{ broadcastStatus: string; sentAt: string | null }>(`select "broadcastStatus", "sentAt" from broadcasts where id = $1`, [data.id])).rows[0]!;
    expect(b.broadcastStatus).toBe("sent");
    expect(b.sentAt).not.toBeNull();
    const logs = await server.db.query<{ emailStatus: string; smsStatus: string | null; notificationStatus: string; subscribe: boolean }>(
      `select l."emailStatus", l."smsStatus", l."notificationStatus", u.subscribe from broadcast_logs l join users u on u.id = l."recipientId" where l."broadcastId" = $1`,
      [data.id],
    );
    expect(logs.rows).toHaveLength(expected);
    expect(logs.rows.every((l) => l.subscribe)).toBe(true);
    expect(logs.rows.every((l) => l.smsStatus === null && l.notificationStatus === "queued")).toBe(true);
    expect(logs.rows.every((l) => ["queued", "failed"].includes(l.emailStatus))).toBe(true);
    const outbox = await server.db.query<{ channel: string; n: number }>(
      `select channel, count(*)::int as n from outbox where payload->>'broadcastId' = $1 group by channel`,
      [data.id],
    );
    const byChannel = Object.fromEntries(outbox.rows.map((r) => [r.channel, r.n]));
    expect(byChannel.notification).toBe(expected);
    expect(byChannel.email).toBe(logs.rows.filter((l) => l.emailStatus === "queued").length);
    expect(await count(`select count(*)::int as n from outbox`)).toBe(outboxBefore + byChannel.notification + (byChannel.email ?? 0));
    expect(unsubscribed + expected).toBeGreaterThanOrEqual(expected);
  });

  it("a draft sends nothing; sending it later fills the logs; a sent broadcast cannot be sent again", async () => {
    const draft = await api(server.app, "POST", "/broadcast", sales, { title: "Draft notice", via: ["sms"], recipientType: "parent", filterRecipient: { branchIds: [branchId] }, send: false });
    expect(draft.statusCode).toBe(201);
    const id = draft.json().data.id;
    expect(await count(`select count(*)::int as n from broadcast_logs where "broadcastId" = $1`, [id])).toBe(0);
    expect((await server.db.query<{ s: string }>(`select "broadcastStatus" as s from broadcasts where id = $1`, [id])).rows[0]!.s).toBe("draft");
    const sent = await api(server.app, "POST", "/broadcast", sales, { id, title: "Draft notice", via: ["sms"], recipientType: "parent", filterRecipient: { branchIds: [branchId] } });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data.recipients).toBeGreaterThan(0);
    expect(await count(`select count(*)::int as n from broadcast_logs where "broadcastId" = $1 and "smsStatus" in ('queued', 'failed')`, [id])).toBe(sent.json().data.recipients);
    const again = await api(server.app, "POST", "/broadcast", sales, { id, title: "Draft notice", via: ["sms"] });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: "This has already been sent." });
  });

  it("bad input is 400 with a message per field and writes nothing; roles without the call get 403", async () => {
    const before = await count(`select count(*)::int as n from broadcasts`);
    const res = await api(server.app, "POST", "/broadcast", sales, { title: "", via: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ title: "This field is required.", via: "Choose at least one channel." });
    expect(await count(`select count(*)::int as n from broadcasts`)).toBe(before);
    expect((await api(server.app, "POST", "/broadcast", hr, { title: "x", via: ["email"] })).statusCode).toBe(403);
    expect((await api(server.app, "POST", "/news", hr, { title: "x" })).statusCode).toBe(403);
    expect((await api(server.app, "POST", "/news")).statusCode).toBe(401);
  });

  it("POST /news stores uploaded recipients and mails them with the students; news_logs has one row per recipient", async () => {
    const res = await api(server.app, "POST", "/news", sales, {
      title: "Open house",
      message: "<p>Join us.</p>",
      hashtags: ["#openhouse"],
      recipientType: "student",
      filterRecipient: { branchIds: [branchId] },
      recipients: [
        { name: "Guest One", email: "guest.one@example.com" },
        { name: null, email: "guest.two@example.com" },
      ],
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    const students = await count(`select count(*)::int as n from users where type = 'student' and status = 'active' and subscribe and "branchId" = $1`, [branchId]);
    expect(data.recipients).toBe(students + 2);
    expect(await count(`select count(*)::int as n from news_recipients_upload where "newsId" = $1 and status = 'active'`, [data.id])).toBe(2);
    expect(await count(`select count(*)::int as n from news_logs where "newsId" = $1 and "recipientId" is null and email like 'guest.%' and "statusSent" = 'queued'`, [data.id])).toBe(2);
    expect(await count(`select count(*)::int as n from outbox where payload->>'newsId' = $1 and recipient = 'guest.one@example.com' and channel = 'email'`, [data.id])).toBe(1);
    const news = (await server.db.query<{ newsStatus: string; hashtags: string[] }>(`select "newsStatus", hashtags from news where id = $1`, [data.id])).rows[0]!;
    expect(news).toEqual({ newsStatus: "sent", hashtags: ["#openhouse"] });
  });

  it("POST /news to uploaded recipients only; a bad e-mail in the upload is refused", async () => {
    const bad = await api(server.app, "POST", "/news", sales, { title: "x", recipients: [{ email: "nope" }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors["recipients.0.email"]).toBe("Please input a valid email!");
    const res = await api(server.app, "POST", "/news", sales, { title: "Guests only", uploadedOnly: true, recipients: [{ name: "A", email: "a@example.com" }] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.recipients).toBe(1);
  });
});
