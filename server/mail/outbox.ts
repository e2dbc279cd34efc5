/**
 * The outbox (DESIGN §1): messages are queued as rows in the transaction that decides to send them,
 * then a delivery loop hands each to a Transport and records the outcome. A message that belongs to a
 * broadcast or news recipient log (payload.logId) also moves that log from queued to sent or failed
 * (with the reason), in the same transaction as the outbox row: the two never disagree. E-mail
 * attachments travel in payload.attachments (base64), and an e-mail written with the templates (template.ts)
 * has its HTML as the body and its plain-text alternative in payload.text, so what was queued is exactly
 * what is sent.
 */
import type { Db, Queryable } from "../db/index.ts";
import type { Channel, MailAttachment, Transport } from "./transport.ts";
import type { MailBody } from "./template.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  /** From the templates (template.ts: html`…` through mailBody, or textMail`…`): every e-mail escapes what it is given. */
  body: MailBody;
}

export interface QueuedMessage {
  channel: Channel;
  recipient: string;
  subject: string | null;
  body: string | null;
  payload: Record<string, unknown>;
}

/** Outbox row statuses (the migration's CHECK). */
export const OUTBOX_STATUS = { pending: "pending", sent: "sent", failed: "failed" } as const;
/** Recipient log statuses (broadcast_logs' three channel columns, news_logs.statusSent). */
export const LOG_STATUS = { queued: "queued", sent: "sent", failed: "failed" } as const;
export const CHANNEL_LABELS: Record<Channel, string> = { email: "Email", sms: "SMS", notification: "Notification" };

/** Queues messages; `db` may be a transaction, and the rows then commit or roll back with it. */
export async function enqueueMessages(db: Queryable, messages: QueuedMessage[]): Promise<void> {
  if (!messages.length) return;
  await db.query(
    `insert into outbox (channel, recipient, subject, body, payload, status)
     select x.channel, x.recipient, x.subject, x.body, x.payload, 'pending'
     from jsonb_to_recordset($1::jsonb) as x(channel text, recipient text, subject text, body text, payload jsonb)`,
    [JSON.stringify(messages)],
  );
}

/** An e-mail written with the templates: its HTML as the body, its plain-text alternative beside it. */
export function emailMessage(recipient: string, subject: string, body: MailBody, payload: Record<string, unknown> = {}): QueuedMessage {
  return { channel: "email", recipient, subject, body: body.html, payload: { ...payload, text: body.text } };
}

/** Queues one e-mail (password codes, temporary passwords). */
export async function enqueueMail(db: Queryable, mail: OutgoingMail): Promise<void> {
  await enqueueMessages(db, [emailMessage(mail.to, mail.subject, mail.body)]);
}

interface PendingRow {
  id: string;
  channel: Channel;
  recipient: string;
  subject: string | null;
  body: string | null;
  payload: { logId?: string; broadcastId?: string; newsId?: string; attachments?: MailAttachment[]; threeTimesAbsent?: boolean; text?: string } | null;
  attempts: number;
}

export interface DeliveryOptions {
  /** Messages taken per round. */
  batchSize?: number;
  /** A message the transport refuses this many times is failed for good (earlier refusals leave it pending). */
  maxAttempts?: number;
  /** How long a message waits before its next try after its nth refusal (default: 30 s doubling, at most an hour). */
  retryDelayMs?: (refusals: number) => number;
  /** Where errors of the delivery itself (not of a transport) are reported. */
  onError?: (error: unknown) => void;
}

export const backoffMs = (refusals: number) => Math.min(30_000 * 2 ** Math.max(0, refusals - 1), 3_600_000);

export interface DeliveryReport {
  sent: number;
  failed: number;
  /** Refused, to be tried again. */
  retrying: number;
  /** Handed over, but the outcome could not be recorded (it will be handed over again). */
  unrecorded: number;
}

const REASON_MAX = 500;
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.trim() || "Unknown error").slice(0, REASON_MAX);
}

/**
 * One round of delivery: the oldest pending messages, each handed to the transport and its outcome
 * recorded in its own transaction. The transport is called outside any transaction (a slow relay must
 * not hold the database); a message whose outcome could not be recorded stays pending and is sent
 * again (at least once).
 */
export async function deliverOutbox(db: Db, transport: Transport, options: DeliveryOptions = {}): Promise<DeliveryReport> {
  const { batchSize = 50, maxAttempts = 3, retryDelayMs = backoffMs, onError = (e) => console.error("[outbox]", e) } = options;
  const report: DeliveryReport = { sent: 0, failed: 0, retrying: 0, unrecorded: 0 };
  const { rows } = await db.query<PendingRow>(
    `select id, channel, recipient, subject, body, payload, coalesce(attempts, 0)::int as attempts
     from outbox where status = 'pending' and ("nextAttemptAt" is null or "nextAttemptAt" <= now())
     order by "createdAt", id limit $1`,
    [batchSize],
  );
  for (const row of rows) {
    let error: string | undefined;
    try {
      const attachments = row.payload?.attachments;
      const text = row.payload?.text;
      await transport.send({
        id: row.id, channel: row.channel, to: row.recipient, subject: row.subject, body: row.body,
        ...(typeof text === "string" ? { text } : {}),
        ...(attachments?.length ? { attachments } : {}),
      });
    } catch (e) {
      error = reasonOf(e);
    }
    const status = error === undefined ? OUTBOX_STATUS.sent : row.attempts + 1 >= maxAttempts ? OUTBOX_STATUS.failed : OUTBOX_STATUS.pending;
    try {
      const retryInMs = status === OUTBOX_STATUS.pending ? retryDelayMs(row.attempts + 1) : 0;
      const recorded = await db.transaction((tx) => recordOutcome(tx, row, status, error, retryInMs));
      if (!recorded) continue;
      if (status === OUTBOX_STATUS.sent) report.sent++;
      else if (status === OUTBOX_STATUS.failed) report.failed++;
      else report.retrying++;
    } catch (e) {
      report.unrecorded++;
      onError(e);
    }
  }
  return report;
}

/** The outbox row and, once the message is final, its recipient log. False: another sender got there first. */
async function recordOutcome(tx: Queryable, row: PendingRow, status: string, error: string | undefined, retryInMs: number): Promise<boolean> {
  const updated = await tx.query(
    `update outbox set status = $2, attempts = coalesce(attempts, 0) + 1, "lastError" = $3,
       "sentAt" = case when $2 = 'sent' then now() else "sentAt" end,
       "nextAttemptAt" = case when $2 = 'pending' then now() + make_interval(secs => $4::float8 / 1000) end
     where id = $1 and status = 'pending'`,
    [row.id, status, error ?? null, retryInMs],
  );
  if (updated.rowCount === 0) return false;
  const logId = row.payload?.logId;
  if (!logId || status === OUTBOX_STATUS.pending) return true;
  // A recipient may have several addresses on a channel (student and parent): the log is failed as soon
  // as one of them failed, sent when all were sent, and stays queued while any is pending.
  const { rows } = await tx.query<{ pending: number; failed: number }>(
    `select count(*) filter (where status = 'pending')::int as pending, count(*) filter (where status = 'failed')::int as failed
     from outbox where payload ? 'logId' and payload->>'logId' = $1 and channel = $2`,
    [logId, row.channel],
  );
  const counts = rows[0] ?? { pending: 0, failed: 0 };
  const logStatus = counts.failed > 0 ? LOG_STATUS.failed : counts.pending > 0 ? undefined : LOG_STATUS.sent;
  if (!logStatus) return true;
  const reason = status === OUTBOX_STATUS.failed ? `${CHANNEL_LABELS[row.channel]} to ${row.recipient}: ${error}` : null;
  const target = row.payload?.broadcastId
    ? { table: "broadcast_logs", column: { email: "emailStatus", sms: "smsStatus", notification: "notificationStatus" }[row.channel] }
    : row.payload?.newsId
      ? { table: "news_logs", column: "statusSent" }
      : undefined;
  // issue 13: a three-times-absent notice (logId = its id) shows its e-mail's outcome; it has no failure reason column.
  if (!target && row.payload?.threeTimesAbsent) {
    const notice = await tx.query(`update three_times_absents set "emailStatus" = $2 where id = $1`, [logId, logStatus]);
    if (notice.rowCount !== 1) throw new Error(`outbox ${row.id}: no three_times_absents row ${String(logId)}`);
    return true;
  }
  if (!target) return true;
  const log = await tx.query(
    `update ${target.table} set "${target.column}" = $2,
       "failureReason" = case when $3::text is null then "failureReason" else concat_ws('; ', "failureReason", $3::text) end
     where id = $1`,
    [logId, logStatus, reason],
  );
  if (log.rowCount !== 1) throw new Error(`outbox ${row.id}: no ${target.table} row ${logId}`);
  return true;
}

/**
 * Runs delivery rounds until stopped: a round right away, then one every intervalMs (at once while a
 * round finishes a full batch). stop() waits for the round in progress.
 */
export function startOutboxDelivery(db: Db, transport: Transport, options: DeliveryOptions & { intervalMs?: number } = {}): { stop(): Promise<void> } {
  const { intervalMs = 1000, ...delivery } = options;
  const batchSize = delivery.batchSize ?? 50;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const round = async () => {
    let full = false;
    try {
      const r = await deliverOutbox(db, transport, { ...delivery, batchSize });
      // A full batch: more may be waiting, go on at once (refused messages wait out their back-off meanwhile).
      full = r.sent + r.failed + r.retrying >= batchSize;
    } catch (e) {
      (delivery.onError ?? ((err) => console.error("[outbox]", err)))(e);
    }
    if (!stopped) timer = setTimeout(() => (running = round()), full ? 0 : intervalMs);
  };
  running = round();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
