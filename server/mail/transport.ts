/**
 * The edge of the world for outgoing messages: e-mail, SMS and in-app notifications leave the server
 * only through a Transport. The outbox delivery (outbox.ts) hands each message to one and records the
 * outcome; a real mail relay or SMS gateway is one more implementation of this interface.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";

export type Channel = "email" | "sms" | "notification";

export interface OutgoingMessage {
  /** The outbox row's id: a transport may use it to make a retry idempotent. */
  id: string;
  channel: Channel;
  /** An e-mail address, a phone number or (notification) a user id. */
  to: string;
  subject: string | null;
  /** An e-mail's HTML when `text` is given (a template's), else plain text. */
  body: string | null;
  /** The plain-text alternative of an HTML e-mail (server/mail/template.ts). */
  text?: string;
  /** Files sent with an e-mail (the PA paper as a PDF…), their content base64-encoded. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
  /** Set on an image the HTML shows inline as <img src="cid:…"> (the PA's PayNow QR): mail clients block data: URLs. */
  cid?: string;
}

export interface Transport {
  /** Resolves when the message was handed over; rejects with the reason it was not. */
  send(message: OutgoingMessage): Promise<void>;
}

/** Prints each message to the log (the embedded default: an embedded install has no mail relay). */
export function logTransport(log: (line: string) => void = console.log): Transport {
  return {
    async send(m) {
      log(`[outbox] ${m.channel} to ${m.to}: ${m.subject ?? ""}\n${m.body ?? ""}`);
    },
  };
}

/**
 * Writes each message as `<dir>/<outbox id>.json` (written to a temporary name, then renamed, so a
 * reader never sees half a file). For development and browser tests, which read the mails from there.
 */
export function fileTransport(dir: string): Transport {
  mkdirSync(dir, { recursive: true });
  return {
    async send(m) {
      const file = path.join(dir, `${m.id}.json`);
      writeFileSync(`${file}.tmp`, JSON.stringify({ ...m, sentAt: new Date().toISOString() }, null, 2));
      renameSync(`${file}.tmp`, file);
    },
  };
}

const GATEWAY_NAMES: Record<Exclude<Channel, "email">, string> = { sms: "SMS gateway", notification: "notification service" };

/**
 * E-mail through an SMTP relay (`smtp://user:password@host:587`, `smtps://…` for TLS from the start).
 * A templated e-mail (one with a plain-text alternative) goes as HTML with that alternative; any other body
 * goes as plain text, whatever it looks like (issue 32: a body is never guessed to be HTML). The outbox id
 * is the Message-ID, so a message handed over again after a crash can be recognised as the same one. A
 * relay's refusal rejects with its reply. SMS and notifications are refused with a reason the recipient's log shows (no gateway for them yet).
 */
export function smtpTransport(url: string, from: string): Transport {
  const relay = nodemailer.createTransport(url);
  return {
    async send(m) {
      if (m.channel !== "email") throw new Error(`No ${GATEWAY_NAMES[m.channel]} is configured.`);
      const body = m.body ?? "";
      await relay.sendMail({
        from,
        to: m.to,
        subject: m.subject ?? "",
        messageId: `<${m.id}@outbox.backoffice>`,
        ...(m.text !== undefined ? { html: body, text: m.text } : { text: body }),
        ...(m.attachments?.length
          ? { attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.contentBase64, "base64"), ...(a.cid ? { cid: a.cid } : {}) })) }
          : {}),
      });
    },
  };
}

export const DEFAULT_MAIL_FROM = "Back Office <no-reply@localhost>";

/**
 * MAIL_DROP_DIR set: the file transport (every channel); else SMTP_URL: e-mail through that relay (SMS and
 * notifications refused: no gateway); else on the embedded database the log. Against a production
 * PostgreSQL with none of them, undefined: messages (password codes among them) are not printed to a
 * shared log; they stay pending in the outbox until a transport is configured.
 */
export function transportFromEnv(env: NodeJS.ProcessEnv, embedded: boolean): Transport | undefined {
  if (env.MAIL_DROP_DIR) return fileTransport(path.resolve(env.MAIL_DROP_DIR));
  if (env.SMTP_URL) return smtpTransport(env.SMTP_URL, env.MAIL_FROM || DEFAULT_MAIL_FROM);
  return embedded ? logTransport() : undefined;
}
