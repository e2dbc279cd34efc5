/** A recording fake of the mail/SMS/notification transport (server/mail/transport.ts) for tests. */
import type { Db } from "../../server/db/types.ts";
import { deliverOutbox, type DeliveryOptions, type DeliveryReport } from "../../server/mail/outbox.ts";
import type { OutgoingMessage, Transport } from "../../server/mail/transport.ts";

export interface RecordingTransport extends Transport {
  /** Every message handed over, in order (refused ones included, see `refused`). */
  readonly handed: OutgoingMessage[];
  readonly refused: OutgoingMessage[];
  /** Refuse the messages this returns a reason for. */
  refuse(rule: ((m: OutgoingMessage) => string | undefined) | undefined): void;
}

export function recordingTransport(): RecordingTransport {
  let rule: ((m: OutgoingMessage) => string | undefined) | undefined;
  const handed: OutgoingMessage[] = [];
  const refused: OutgoingMessage[] = [];
  return {
    handed,
    refused,
    refuse(r) {
      rule = r;
    },
    async send(m) {
      handed.push(m);
      const reason = rule?.(m);
      if (reason) {
        refused.push(m);
        throw new Error(reason);
      }
    },
  };
}

/** Delivery rounds until a round finds nothing pending; the reports summed. */
export async function drainOutbox(db: Db, transport: Transport, options: DeliveryOptions = {}): Promise<DeliveryReport> {
  const total: DeliveryReport = { sent: 0, failed: 0, retrying: 0, unrecorded: 0 };
  for (let round = 0; round < 1000; round++) {
    const r = await deliverOutbox(db, transport, options);
    for (const k of Object.keys(total) as (keyof DeliveryReport)[]) total[k] += r[k];
    if (r.sent + r.failed + r.retrying + r.unrecorded === 0) return total;
  }
  throw new Error("the outbox did not drain");
}
