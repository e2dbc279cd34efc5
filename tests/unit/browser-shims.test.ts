/**
 * The browser build swaps a few packages for lighter stand-ins (vite.config.ts, src/app/shims/). Each must
 * behave as the original where the app uses it.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);

describe("the browser build's stand-ins", () => {
  it("side-channel: the same store as the package's", () => {
    const getOurs = require("../../src/app/shims/side-channel.cjs") as typeof import("side-channel");
    const getTheirs = require("side-channel") as typeof import("side-channel");
    const key = {};
    for (const channel of [getOurs(), getTheirs()]) {
      expect(channel.has(key)).toBe(false);
      expect(channel.get(key)).toBeUndefined();
      expect(() => channel.assert(key)).toThrow(TypeError);
      channel.set(key, 1);
      channel.set("k", 2);
      expect([channel.get(key), channel.get("k"), channel.has(key), channel.has("k")]).toEqual([1, 2, true, true]);
      expect(channel.delete(key)).toBe(true);
      expect(channel.has(key)).toBe(false);
      expect(() => channel.assert("missing")).toThrow(TypeError);
    }
  });
});
