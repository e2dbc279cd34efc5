import type { Db, Queryable } from "../db/index.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  body: string;
}

/**
 * Queues an e-mail in the outbox table (a sender drains it). On the embedded database the mail is
 * also printed to the log, since an embedded install has no mail relay (DESIGN §1).
 * `db` may be a transaction: the row then commits or rolls back with it.
 */
export async function enqueueMail(db: Db | Queryable, mail: OutgoingMail, options: { print?: boolean } = {}): Promise<void> {
  await db.query(
    `insert into outbox (channel, recipient, subject, body, payload, status) values ('email', $1, $2, $3, $4, 'pending')`,
    [mail.to, mail.subject, mail.body, JSON.stringify({})],
  );
  const embedded = "kind" in db && db.kind === "pglite";
  if (options.print ?? (embedded && !process.env.VITEST)) {
    console.log(`[outbox] mail to ${mail.to}: ${mail.subject}\n${mail.body}`);
  }
}
