/**
 * The edge of the world for outgoing messages: e-mail, SMS and in-app notifications leave the server
 * only through a Transport. The outbox delivery (outbox.ts) hands each message to one and records the
 * outcome; a real mail relay or SMS gateway is one more implementation of this interface.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export type Channel = "email" | "sms" | "notification";

export interface OutgoingMessage {
  /** The outbox row's id: a transport may use it to make a retry idempotent. */
  id: string;
  channel: Channel;
  /** An e-mail address, a phone number or (notification) a user id. */
  to: string;
  subject: string | null;
  body: string | null;
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

/**
 * MAIL_DROP_DIR set: the file transport; else on the embedded database the log. Against a production
 * PostgreSQL with neither, undefined: messages (password codes among them) are not printed to a shared
 * log; they stay pending in the outbox for a real transport.
 */
export function transportFromEnv(env: NodeJS.ProcessEnv, embedded: boolean): Transport | undefined {
  if (env.MAIL_DROP_DIR) return fileTransport(path.resolve(env.MAIL_DROP_DIR));
  return embedded ? logTransport() : undefined;
}
