/**
 * Large GraphQL answers go out as bytes encoded into reused memory. Handing Node a 400 kB string costs ~1 ms of
 * the event loop per answer (it measures the string, joins it to the headers and encodes it into freshly allocated
 * memory, whose first touch is the expensive part); encoding into memory that is already mapped costs ~0.02 ms.
 * A buffer is lent for one response and comes back when that response is closed (written, or its connection
 * gone), so no two answers ever share bytes in flight.
 */

/** Below this many characters a string is sent as it is: the saving would not pay for the bookkeeping. */
export const POOLED_FROM_CHARS = 32 * 1024;
/** At most this many buffers wait for reuse (answers beyond them in flight at once get fresh memory). */
const KEEP_FREE = 8;
/** Buffers larger than this are never kept: a rare huge answer should not pin its memory. */
const KEEP_AT_MOST_BYTES = 4 * 1024 * 1024;

export interface LentBytes {
  readonly bytes: Buffer;
  /** Gives the memory back; call once the response has been written or abandoned. Idempotent. */
  release(): void;
}

export class ResponseBuffers {
  private readonly free: Buffer[] = [];

  /** The text as UTF-8; `release` must be called when the bytes are no longer needed. */
  encode(text: string): LentBytes {
    // UTF-8 needs at most 3 bytes per UTF-16 code unit: a buffer that large always holds the whole text
    const needed = text.length * 3;
    const i = this.free.findIndex((b) => b.length >= needed);
    const memory = i >= 0 ? this.free.splice(i, 1)[0] : Buffer.allocUnsafeSlow(capacityFor(needed));
    const written = memory.write(text, 0, "utf8");
    let released = false;
    return {
      bytes: memory.subarray(0, written),
      release: () => {
        if (released) return;
        released = true;
        if (memory.length <= KEEP_AT_MOST_BYTES && this.free.length < KEEP_FREE) this.free.push(memory);
      },
    };
  }

  /** Buffers waiting for reuse (for tests). */
  get pooled(): number {
    return this.free.length;
  }
}

/** Sizes rounded up to a power of two from 128 kB, so answers of similar size reuse one another's buffers. */
function capacityFor(bytes: number): number {
  let size = 128 * 1024;
  while (size < bytes) size *= 2;
  return size;
}
