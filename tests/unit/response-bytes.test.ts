import { describe, expect, it } from "vitest";
import { ResponseBuffers } from "../../server/graphql/http/response-bytes.ts";

describe("GraphQL answers encoded into reused memory", () => {
  it("gives the text's exact UTF-8 bytes, whatever its characters", () => {
    const buffers = new ResponseBuffers();
    for (const text of ['{"data":{"name":"Tan Ah Kow"}}', '{"name":"李小龍 — Zoë 🎉"}', "x".repeat(200_000) + "é", ""]) {
      const lent = buffers.encode(text);
      expect(lent.bytes.equals(Buffer.from(text, "utf8"))).toBe(true);
      lent.release();
    }
  });

  it("lends memory to one answer at a time: a buffer comes back only once released, and once", () => {
    const buffers = new ResponseBuffers();
    const first = buffers.encode("a".repeat(50_000));
    const second = buffers.encode("b".repeat(50_000));
    expect(first.bytes.buffer).not.toBe(second.bytes.buffer);
    expect(first.bytes.toString()).toBe("a".repeat(50_000));
    first.release();
    first.release();
    expect(buffers.pooled).toBe(1);
    const third = buffers.encode("c".repeat(40_000));
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    expect(buffers.pooled).toBe(0);
    expect(second.bytes.toString()).toBe("b".repeat(50_000));
    expect(third.bytes.toString()).toBe("c".repeat(40_000));
  });

  it("keeps a bounded number of buffers and never a huge one", () => {
    const buffers = new ResponseBuffers();
    const lent = Array.from({ length: 20 }, () => buffers.encode("z".repeat(40_000)));
    lent.forEach((l) => l.release());
    expect(buffers.pooled).toBe(8);
    const huge = buffers.encode("y".repeat(2_000_000)); // needs 6 MB of worst-case room: fresh memory, not kept
    expect(huge.bytes.length).toBe(2_000_000);
    huge.release();
    expect(buffers.pooled).toBe(8);
  });
});
