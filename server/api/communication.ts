/**
 * POST /broadcast and POST /news (spec part 1 §7): create a broadcast or news item and, unless it is
 * saved as a draft, send it — through the outbox table, one outbox row per address and channel, and
 * one log row per recipient (broadcast_logs with emailStatus/smsStatus/notificationStatus, news_logs
 * with statusSent), all in one transaction. The outbox delivery then moves each log to sent or failed. Recipients are the active students who have not
 * unsubscribed (subscribe = true), narrowed by filterRecipient, or their parents; news can also go to
 * recipients uploaded from a file (news_recipients_upload).
 */
import { randomUUID } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { Queryable } from "../db/index.ts";
import { emailMessage, enqueueMessages, LOG_STATUS, type QueuedMessage } from "../mail/outbox.ts";
import { html, mailBody, richText as storedRichText } from "../mail/template.ts";
import { sanitiseRichText } from "../security/rich-text.ts";
import { uuid, validationError } from "./validation.ts";

export const COMMUNICATION_MESSAGES = {
  notFound: "Not found.",
  alreadySent: "This has already been sent.",
  noChannel: "Choose at least one channel.",
  required: "This field is required.",
} as const;

/**
 * Log statuses written here: queued (in the outbox) or failed (no address for the channel). The outbox
 * delivery (server/mail/outbox.ts) later moves queued ones to sent or failed.
 */
export const SEND_STATUS = { queued: LOG_STATUS.queued, failed: LOG_STATUS.failed } as const;
/** The failure reason of a recipient without an address on a channel. */
export const NO_ADDRESS: Record<QueuedMessage["channel"], string> = {
  email: "Email: no e-mail address",
  sms: "SMS: no phone number",
  notification: "Notification: no account",
};

const filterRecipient = z
  .object({
    companyId: uuid().nullable().optional(),
    branchIds: z.array(uuid()).optional(),
    levelIds: z.array(uuid()).optional(),
    classIds: z.array(uuid()).optional(),
    studentIds: z.array(uuid()).optional(),
  })
  .nullable()
  .optional();
/** Rich text (Quill HTML) is stored sanitised (issue 10 §4). */
const richText = z.string().max(200_000).transform(sanitiseRichText).nullable().optional();
const recipientType = z.enum(["all", "student", "parent"]).default("student");
const common = {
  id: uuid().optional(),
  title: z.string().trim().min(1, COMMUNICATION_MESSAGES.required).max(300),
  subject: z.string().max(300).nullable().optional(),
  recipientType,
  filterRecipient,
  companyId: uuid().nullable().optional(),
  /** false: save as a draft without sending. */
  send: z.boolean().default(true),
};
const broadcastBody = z.object({
  ...common,
  content: richText,
  via: z.array(z.enum(["email", "sms", "notification"])).min(1, COMMUNICATION_MESSAGES.noChannel),
});
const newsBody = z.object({
  ...common,
  message: richText,
  footer: z.string().max(2000).nullable().optional(),
  coverUrl: z.string().max(2000).nullable().optional(),
  hashtags: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
  type: z.string().max(100).nullable().optional(),
  /** Recipients uploaded from a file (name, email); they get the news by e-mail. */
  recipients: z.array(z.object({ name: z.string().max(200).nullable().optional(), email: z.string().trim().email("Please input a valid email!") })).max(5000).optional(),
  /** Only uploaded recipients, no students or parents. */
  uploadedOnly: z.boolean().default(false),
});

type Filter = z.infer<typeof filterRecipient>;
interface Recipient {
  id: string;
  email: string | null;
  phone: { code?: string; number?: string } | null;
  parentEmail: string | null;
  parentPhone: { code?: string; number?: string } | null;
}

/** The students a message goes to: active, subscribed, narrowed by the filter. */
export async function resolveRecipients(db: Queryable, filter: Filter, companyId: string | null | undefined): Promise<Recipient[]> {
  const f = filter ?? {};
  const arr = (v: string[] | undefined) => (v && v.length ? v : null);
  const { rows } = await db.query<Recipient>(
    `select u.id, u.email, u.phone,
       (select p->>'email' from jsonb_array_elements(u.parents) p order by coalesce((p->>'primaryContact')::boolean, false) desc limit 1) as "parentEmail",
       (select p->'phone' from jsonb_array_elements(u.parents) p order by coalesce((p->>'primaryContact')::boolean, false) desc limit 1) as "parentPhone"
     from users u
     where u.type = 'student' and u.status = 'active' and u.subscribe
       and ($1::uuid is null or u."companyId" = $1::uuid)
       and ($2::uuid[] is null or u."branchId" = any($2::uuid[]))
       and ($3::uuid[] is null or u."levelId" = any($3::uuid[]))
       and ($4::uuid[] is null or exists (select 1 from student_classes sc where sc."userId" = u.id and sc."classId" = any($4::uuid[]) and sc.status = 'enrolled'))
       and ($5::uuid[] is null or u.id = any($5::uuid[]))
     order by u.id`,
    [f.companyId ?? companyId ?? null, arr(f.branchIds), arr(f.levelIds), arr(f.classIds), arr(f.studentIds)],
  );
  return rows;
}

const phoneText = (p: Recipient["phone"]) => (p?.number ? `${p.code ?? ""}${p.number}` : null);

/** The addresses of a recipient for one channel, by recipient type. */
function addresses(r: Recipient, channel: QueuedMessage["channel"], type: "all" | "student" | "parent"): string[] {
  const own = channel === "email" ? r.email : channel === "sms" ? phoneText(r.phone) : r.id;
  const parent = channel === "email" ? r.parentEmail : channel === "sms" ? phoneText(r.parentPhone) : null;
  const list = type === "student" ? [own] : type === "parent" ? [parent] : [own, parent];
  return [...new Set(list.filter((a): a is string => Boolean(a)))];
}

export const communicationRoutes: FastifyPluginAsync<{ ctx: ServerContext }> = async (app, { ctx }) => {
  const { db } = ctx;

  app.post("/broadcast", async (request, reply) => {
    const parsed = broadcastBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const b = parsed.data;
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx) => {
      const values = [b.title, b.subject ?? b.title, b.content ?? null, JSON.stringify(b.via), b.recipientType, JSON.stringify(b.filterRecipient ?? {}), b.companyId ?? null, by];
      let id = b.id;
      if (id) {
        const { rows } = await tx.query<{ broadcastStatus: string }>(`select "broadcastStatus" from broadcasts where id = $1 and status <> 'deleted' for update`, [id]);
        if (!rows[0]) return { error: 404 as const, message: COMMUNICATION_MESSAGES.notFound };
        if (rows[0].broadcastStatus === "sent") return { error: 400 as const, message: COMMUNICATION_MESSAGES.alreadySent };
        await tx.query(
          `update broadcasts set title = $2, subject = $3, content = $4, via = $5::jsonb, "recipientType" = $6, "filterRecipient" = $7::jsonb, "companyId" = $8, "updatedBy" = $9 where id = $1`,
          [id, ...values],
        );
      } else {
        const { rows } = await tx.query<{ id: string }>(
          `insert into broadcasts (title, subject, content, via, "recipientType", "filterRecipient", "companyId", "broadcastStatus", "createdBy", "updatedBy")
           values ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7, 'draft', $8, $8) returning id`,
          values,
        );
        id = rows[0]!.id;
      }
      if (!b.send) return { id, recipients: 0 };
      const recipients = await resolveRecipients(tx, b.filterRecipient, b.companyId);
      const subject = b.subject ?? b.title;
      const email = mailBody(storedRichText(b.content));
      const outbox: QueuedMessage[] = [];
      const logs = recipients.map((r) => {
        const logId = randomUUID();
        const status: Record<string, string | null> = { email: null, sms: null, notification: null };
        const reasons: string[] = [];
        for (const channel of b.via) {
          const to = addresses(r, channel, b.recipientType);
          status[channel] = to.length ? SEND_STATUS.queued : SEND_STATUS.failed;
          if (!to.length) reasons.push(NO_ADDRESS[channel]);
          const payload = { broadcastId: id, recipientId: r.id, logId };
          for (const recipient of to) {
            outbox.push(channel === "email" ? emailMessage(recipient, subject, email, payload) : { channel, recipient, subject, body: b.content ?? "", payload });
          }
        }
        return { id: logId, recipientId: r.id, emailStatus: status.email, smsStatus: status.sms, notificationStatus: status.notification, failureReason: reasons.join("; ") || null };
      });
      await enqueueMessages(tx, outbox);
      if (logs.length) {
        await tx.query(
          `insert into broadcast_logs (id, "broadcastId", "recipientId", "emailStatus", "smsStatus", "notificationStatus", "failureReason", "createdBy", "updatedBy")
           select x.id, $1, x."recipientId", x."emailStatus", x."smsStatus", x."notificationStatus", x."failureReason", $3, $3
           from jsonb_to_recordset($2::jsonb) as x(id uuid, "recipientId" uuid, "emailStatus" text, "smsStatus" text, "notificationStatus" text, "failureReason" text)`,
          [id, JSON.stringify(logs), by],
        );
      }
      await tx.query(`update broadcasts set "broadcastStatus" = 'sent', "sentAt" = now(), "updatedBy" = $2 where id = $1`, [id, by]);
      return { id, recipients: logs.length, messages: outbox.length };
    });
    if ("error" in result) return reply.code(result.error ?? 400).send({ success: false, message: result.message });
    return reply.code(b.id ? 200 : 201).send({ success: true, data: result });
  });

  app.post("/news", async (request, reply) => {
    const parsed = newsBody.safeParse(request.body ?? {});
    if (!parsed.success) return validationError(reply, parsed.error);
    const n = parsed.data;
    const by = request.session?.userId ?? null;
    const result = await db.transaction(async (tx) => {
      const values = [n.title, n.subject ?? n.title, n.message ?? null, n.footer ?? null, n.coverUrl ?? null, JSON.stringify(n.hashtags), n.type ?? null,
        n.recipientType, JSON.stringify(n.filterRecipient ?? {}), n.companyId ?? null, by];
      let id = n.id;
      if (id) {
        const { rows } = await tx.query<{ newsStatus: string }>(`select "newsStatus" from news where id = $1 and status <> 'deleted' for update`, [id]);
        if (!rows[0]) return { error: 404 as const, message: COMMUNICATION_MESSAGES.notFound };
        if (rows[0].newsStatus === "sent") return { error: 400 as const, message: COMMUNICATION_MESSAGES.alreadySent };
        await tx.query(
          `update news set title = $2, subject = $3, message = $4, footer = $5, "coverUrl" = $6, hashtags = $7::jsonb, type = $8, "recipientType" = $9,
             "filterRecipient" = $10::jsonb, "companyId" = $11, "updatedBy" = $12 where id = $1`,
          [id, ...values],
        );
      } else {
        const { rows } = await tx.query<{ id: string }>(
          `insert into news (title, subject, message, footer, "coverUrl", hashtags, type, "recipientType", "filterRecipient", "companyId", "newsStatus", "createdBy", "updatedBy")
           values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb, $10, 'draft', $11, $11) returning id`,
          values,
        );
        id = rows[0]!.id;
      }
      if (n.recipients) {
        // The uploaded list replaces the previous one.
        await tx.query(`update news_recipients_upload set status = 'deleted', "updatedBy" = $2 where "newsId" = $1 and status <> 'deleted'`, [id, by]);
        if (n.recipients.length) {
          await tx.query(
            `insert into news_recipients_upload ("newsId", name, email, "createdBy", "updatedBy")
             select $1, x.name, x.email, $3, $3 from jsonb_to_recordset($2::jsonb) as x(name text, email text)`,
            [id, JSON.stringify(n.recipients.map((r) => ({ name: r.name ?? null, email: r.email }))), by],
          );
        }
      }
      if (!n.send) return { id, recipients: 0 };
      const students = n.uploadedOnly ? [] : await resolveRecipients(tx, n.filterRecipient, n.companyId);
      const { rows: uploaded } = await tx.query<{ name: string | null; email: string }>(
        `select name, email from news_recipients_upload where "newsId" = $1 and status <> 'deleted' order by email`,
        [id],
      );
      const outbox: QueuedMessage[] = [];
      const logs: { id: string; recipientId: string | null; email: string | null; statusSent: string; failureReason: string | null }[] = [];
      const subject = n.subject ?? n.title;
      // The footer is plain text: escaped, its line breaks kept.
      const footer = n.footer ? html`<p>${n.footer.split(/\r?\n/).map((line, i) => (i ? html`<br>${line}` : line))}</p>` : "";
      const body = mailBody(html`${storedRichText(n.message)}${footer}`);
      for (const s of students) {
        const logId = randomUUID();
        const to = addresses(s, "email", n.recipientType);
        for (const recipient of to) outbox.push(emailMessage(recipient, subject, body, { newsId: id, recipientId: s.id, logId }));
        logs.push({ id: logId, recipientId: s.id, email: to[0] ?? null, statusSent: to.length ? SEND_STATUS.queued : SEND_STATUS.failed, failureReason: to.length ? null : NO_ADDRESS.email });
      }
      for (const u of uploaded) {
        const logId = randomUUID();
        outbox.push(emailMessage(u.email, subject, body, { newsId: id, uploaded: true, logId }));
        logs.push({ id: logId, recipientId: null, email: u.email, statusSent: SEND_STATUS.queued, failureReason: null });
      }
      await enqueueMessages(tx, outbox);
      if (logs.length) {
        await tx.query(
          `insert into news_logs (id, "newsId", "recipientId", email, "statusSent", "failureReason", "createdBy", "updatedBy")
           select x.id, $1, x."recipientId", x.email, x."statusSent", x."failureReason", $3, $3
           from jsonb_to_recordset($2::jsonb) as x(id uuid, "recipientId" uuid, email text, "statusSent" text, "failureReason" text)`,
          [id, JSON.stringify(logs), by],
        );
      }
      await tx.query(`update news set "newsStatus" = 'sent', "sentAt" = now(), "updatedBy" = $2 where id = $1`, [id, by]);
      return { id, recipients: logs.length, messages: outbox.length };
    });
    if ("error" in result) return reply.code(result.error ?? 400).send({ success: false, message: result.message });
    return reply.code(n.id ? 200 : 201).send({ success: true, data: result });
  });
};
