/**
 * Outbox delivery of broadcasts and news (issue 7 §7: "sending goes through the outbox with
 * per-recipient status logs"): each message goes to the transport (a recording fake here); when it is
 * handed over the recipient's log becomes sent, when the transport refuses it the log becomes failed
 * with the reason — in one transaction with the outbox row, so the two never disagree.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db, Queryable } from "../../server/db/types.ts";
import { deliverOutbox, startOutboxDelivery } from "../../server/mail/outbox.ts";
import { fileTransport } from "../../server/mail/transport.ts";
import { databaseLanes } from "../support/db.ts";
import { api, signIn, startTestServer, type TestServer } from "../support/auth.ts";
import { drainOutbox, recordingTransport, type RecordingTransport } from "./communication-transport.ts";

describe.each(databaseLanes())("outbox delivery updates the recipient logs [%s]", (lane) => {
  let server: TestServer;
  let sales: string;
  let branchId: string;
  let transport: RecordingTransport;
  beforeAll(async () => {
    server = await startTestServer(lane);
    sales = (await signIn(server.app, "sales")).accessToken;
    const { rows } = await server.db.query<{ id: string }>(
      `select "branchId" as id from users where type = 'student' and status = 'active' and subscribe and "branchId" is not null group by "branchId" order by count(*) desc limit 1`,
    );
    branchId = rows[0]!.id;
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    // Whatever earlier tests (or the seed) left pending is delivered first, so each test sees only its own.
    await drainOutbox(server.db, recordingTransport());
    transport = recordingTransport();
  });

  const broadcastLogs = async (id: string) =>
    (
      await server.db.query<{ id: string; recipientId: string; emailStatus: string | null; smsStatus: string | null; notificationStatus: string | null; failureReason: string | null }>(
        `select id, "recipientId", "emailStatus", "smsStatus", "notificationStatus", "failureReason" from broadcast_logs where "broadcastId" = $1 order by "recipientId"`,
        [id],
      )
    ).rows;
  const outboxOf = async (key: "broadcastId" | "newsId", id: string) =>
    (
      await server.db.query<{ id: string; recipient: string; channel: string; status: string; attempts: number; lastError: string | null; sentAt: string | null; logId: string }>(
        `select id, recipient, channel, status, attempts, "lastError", "sentAt", payload->>'logId' as "logId" from outbox where payload->>'${key}' = $1 order by recipient, channel`,
        [id],
      )
    ).rows;

  it("delivery succeeds: every queued channel of every recipient log becomes sent, the outbox rows sent with sentAt", async () => {
    const res = await api(server.app, "POST", "/broadcast", sales, {
      title: "Holiday timetable",
      content: "<p>See the new timetable.</p>",
      via: ["email", "sms", "notification"],
      recipientType: "all",
      filterRecipient: { branchIds: [branchId] },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as string;
    const before = await broadcastLogs(id);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((l) => l.notificationStatus === "queued")).toBe(true);
    const messages = await outboxOf("broadcastId", id);

    const report = await drainOutbox(server.db, transport);
    expect(report).toMatchObject({ failed: 0, retrying: 0, unrecorded: 0 });
    expect(report.sent).toBe(messages.length);
    expect(transport.handed.map((m) => m.id).sort()).toEqual(messages.map((m) => m.id).sort());
    expect(transport.handed.find((m) => m.channel === "email")).toMatchObject({ subject: "Holiday timetable", body: "<p>See the new timetable.</p>" });

    const after = await broadcastLogs(id);
    for (const [i, log] of after.entries()) {
      const was = before[i]!;
      expect(log.id).toBe(was.id);
      for (const channel of ["emailStatus", "smsStatus", "notificationStatus"] as const) {
        // queued → sent; a channel without an address stays failed with its reason.
        expect(log[channel]).toBe(was[channel] === "queued" ? "sent" : was[channel]);
      }
      expect(log.failureReason).toBe(was.failureReason);
      if (was.smsStatus === "failed") expect(log.failureReason).toContain("SMS: no phone number");
    }
    expect((await outboxOf("broadcastId", id)).every((m) => m.status === "sent" && m.sentAt !== null && m.attempts === 1 && m.lastError === null)).toBe(true);
  });

  it("transport fails: after the last attempt the log is failed with the reason; other recipients are sent", async () => {
    const res = await api(server.app, "POST", "/news", sales, {
      title: "Parents' evening",
      message: "<p>Come and meet the tutors.</p>",
      uploadedOnly: true,
      recipients: [
        { name: "Reachable", email: "reachable@example.com" },
        { name: "Bouncing", email: "bounce@example.com" },
      ],
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as string;
    transport.refuse((m) => (m.to === "bounce@example.com" ? "550 mailbox unavailable" : undefined));
    const logs = async () =>
      (await server.db.query<{ email: string; statusSent: string; failureReason: string | null }>(`select email, "statusSent", "failureReason" from news_logs where "newsId" = $1 order by email`, [id])).rows;

    // First refusal: tried again later, the log still queued.
    const first = await deliverOutbox(server.db, transport, { maxAttempts: 3 });
    expect(first).toMatchObject({ sent: 1, retrying: 1, failed: 0 });
    expect(await logs()).toEqual([
      { email: "bounce@example.com", statusSent: "queued", failureReason: null },
      { email: "reachable@example.com", statusSent: "sent", failureReason: null },
    ]);
    const bouncing = (await outboxOf("newsId", id)).find((m) => m.recipient === "bounce@example.com")!;
    expect(bouncing).toMatchObject({ status: "pending", attempts: 1, lastError: "550 mailbox unavailable", sentAt: null });
    // it waits out its back-off (30 s after the first refusal) before the next try
    const wait = await server.db.query<{ s: number }>(`select extract(epoch from "nextAttemptAt" - now())::float8 as s from outbox where id = $1`, [bouncing.id]);
    expect(wait.rows[0]!.s).toBeGreaterThan(20);
    expect(wait.rows[0]!.s).toBeLessThanOrEqual(30);
    expect(await deliverOutbox(server.db, transport, { maxAttempts: 3 })).toMatchObject({ sent: 0, retrying: 0, failed: 0 });
    expect(transport.refused.filter((m) => m.to === "bounce@example.com")).toHaveLength(1);

    // the back-off over, it is tried again (no further waits from here)
    await server.db.query(`update outbox set "nextAttemptAt" = now() where id = $1`, [bouncing.id]);
    const rest = await drainOutbox(server.db, transport, { maxAttempts: 3, retryDelayMs: () => 0 });
    expect(rest).toMatchObject({ sent: 0, retrying: 1, failed: 1, unrecorded: 0 });
    expect(transport.refused.filter((m) => m.to === "bounce@example.com")).toHaveLength(3);
    expect(await logs()).toEqual([
      { email: "bounce@example.com", statusSent: "failed", failureReason: "Email to bounce@example.com: 550 mailbox unavailable" },
      { email: "reachable@example.com", statusSent: "sent", failureReason: null },
    ]);
    expect((await outboxOf("newsId", id)).find((m) => m.recipient === "bounce@example.com")).toMatchObject({ status: "failed", attempts: 3, lastError: "550 mailbox unavailable", sentAt: null });
  });

  it("a recipient with two addresses on a channel is failed when one of them fails, with that address in the reason", async () => {
    const { rows } = await server.db.query<{ id: string; email: string; parentEmail: string }>(
      `select u.id, u.email, p->>'email' as "parentEmail" from users u, jsonb_array_elements(u.parents) p
       where u.type = 'student' and u.status = 'active' and u.subscribe and u.email is not null and p->>'email' is not null and p->>'email' <> u.email
         and coalesce((p->>'primaryContact')::boolean, false) limit 1`,
    );
    const student = rows[0]!;
    expect(student).toBeDefined();
    const res = await api(server.app, "POST", "/broadcast", sales, { title: "Report cards", content: "<p>Ready.</p>", via: ["email"], recipientType: "all", filterRecipient: { studentIds: [student.id] } });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as string;
    transport.refuse((m) => (m.to === student.parentEmail ? "connection refused" : undefined));
    const report = await drainOutbox(server.db, transport, { maxAttempts: 1 });
    expect(report).toMatchObject({ sent: 1, failed: 1 });
    const [log] = await broadcastLogs(id);
    expect(log).toMatchObject({ emailStatus: "failed", failureReason: `Email to ${student.parentEmail}: connection refused` });
  });

  it("nothing half-written: when the log cannot be updated the outbox row stays pending, and the next round records both", async () => {
    const res = await api(server.app, "POST", "/news", sales, { title: "Quiz night", message: "<p>Friday.</p>", uploadedOnly: true, recipients: [{ name: "Q", email: "quiz@example.com" }] });
    const id = res.json().data.id as string;
    const errors: unknown[] = [];
    const broken = failingOn(server.db, /update news_logs/);
    const report = await deliverOutbox(broken, transport, { onError: (e) => errors.push(e) });
    expect(report).toMatchObject({ sent: 0, failed: 0, unrecorded: 1 });
    expect(String(errors[0])).toContain("simulated failure");
    expect(transport.handed.map((m) => m.to)).toEqual(["quiz@example.com"]);
    expect((await outboxOf("newsId", id))[0]).toMatchObject({ status: "pending", attempts: 0, sentAt: null });
    const log = async () => (await server.db.query<{ statusSent: string }>(`select "statusSent" from news_logs where "newsId" = $1`, [id])).rows[0]!.statusSent;
    expect(await log()).toBe("queued");

    // Handed over at least once: the next round hands it over again and records it.
    expect(await deliverOutbox(server.db, transport)).toMatchObject({ sent: 1, unrecorded: 0 });
    expect(transport.handed.map((m) => m.to)).toEqual(["quiz@example.com", "quiz@example.com"]);
    expect(await log()).toBe("sent");
    expect((await outboxOf("newsId", id))[0]).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("the delivery loop (npm start) delivers on its own; the file transport drops one JSON file per message", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "backoffice-mail-"));
    const loop = startOutboxDelivery(server.db, fileTransport(dir), { intervalMs: 50 });
    try {
      const res = await api(server.app, "POST", "/news", sales, { title: "Loop check", message: "<p>Hi.</p>", uploadedOnly: true, recipients: [{ name: "L", email: "loop@example.com" }] });
      const id = res.json().data.id as string;
      await vi.waitFor(async () => {
        const { rows } = await server.db.query<{ statusSent: string }>(`select "statusSent" from news_logs where "newsId" = $1`, [id]);
        expect(rows[0]?.statusSent).toBe("sent");
      }, { timeout: 30_000, interval: 100 });
      const outboxId = (await outboxOf("newsId", id))[0]!.id;
      expect(JSON.parse(readFileSync(path.join(dir, `${outboxId}.json`), "utf8"))).toMatchObject({ id: outboxId, channel: "email", to: "loop@example.com", subject: "Loop check" });
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await loop.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("password mails (no recipient log) are delivered and marked sent", async () => {
    await server.db.query(`insert into outbox (channel, recipient, subject, body, payload) values ('email', 'someone@example.com', 'Your password reset code', 'Code 123456', '{}')`);
    expect(await drainOutbox(server.db, transport)).toMatchObject({ sent: 1, failed: 0 });
    expect(transport.handed[0]).toMatchObject({ channel: "email", to: "someone@example.com", subject: "Your password reset code", body: "Code 123456" });
    const { rows } = await server.db.query<{ status: string }>(`select status from outbox where recipient = 'someone@example.com'`);
    expect(rows).toEqual([{ status: "sent" }]);
  });
});

/** The database, except that a statement matching `pattern` inside a transaction throws (after the ones before it ran). */
function failingOn(db: Db, pattern: RegExp): Db {
  return {
    ...db,
    kind: db.kind,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    listen: db.listen.bind(db),
    close: db.close.bind(db),
    transaction: (fn) =>
      db.transaction((tx) => {
        const wrapped: Queryable = {
          query: <T,>(sql: string, params?: unknown[]) => (pattern.test(sql) ? Promise.reject(new Error("simulated failure")) : tx.query<T>(sql, params)),
          exec: (sql) => tx.exec(sql),
        };
        return fn(wrapped);
      }),
  };
}
