/**
 * The browser build swaps a few packages for lighter stand-ins (vite.config.ts, src/app/shims/). Each must
 * behave as the original where the app uses it.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createElement, type ComponentType } from "react";
import { prerender } from "react-dom/static";
import PaginationSizeSelect, { loadSelect } from "../../src/app/shims/pagination-size-select.tsx";
import VirtualTable from "../../src/app/shims/table-virtual-unused.ts";

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

  it("Pagination's page-size select: antd's own Select, loaded when drawn, with the props Pagination gives it", async () => {
    const { default: Select } = await loadSelect();
    expect(Select).toBe((await import("antd/es/select/index.js")).default);
    const html = async (type: ComponentType<Record<string, unknown>>) => {
      const props = { value: 20, options: [10, 20, 50].map((n) => ({ value: n, label: `${n} / page` })), popupMatchSelectWidth: false, "aria-label": "Page Size" };
      const { prelude } = await prerender(createElement(type, props));
      return new Response(prelude).text();
    };
    const ours = (await html(PaginationSizeSelect as ComponentType<Record<string, unknown>>)).replace(/<!--\/?\$-->/g, ""); // Suspense's boundary marks
    expect(ours).toContain("20 / page");
    expect(ours).toBe(await html(Select as ComponentType<Record<string, unknown>>));
  });

  it("antd Table's virtual mode: not in the build, throws if drawn", () => {
    expect(() => VirtualTable()).toThrow(/virtual mode is not in the browser build/);
  });
});
