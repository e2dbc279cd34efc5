/** Shared set-up of the app-shell UI tests: jsdom gaps antd needs, and pointing the app at the in-process server. */
import { vi } from "vitest";
import { ConfigProvider } from "antd";
import { createElement } from "react";
import { configureApp } from "../../src/app/config.ts";
import { clearSession } from "../../src/app/session.ts";
import { resetPolicy } from "../../src/app/policy.ts";

export function installDomGaps(): void {
  if (!window.matchMedia) {
    Object.defineProperty(window, "matchMedia", {
      writable: true,
      value: (query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }),
    });
  }
  // antd measures scrollbars through getComputedStyle with a pseudo element, which jsdom does not implement.
  const original = window.getComputedStyle;
  window.getComputedStyle = (elt: Element) => original(elt);
}

/** No motion: antd removes a toast the moment it closes (jsdom fires no transition events). */
export function disableMotion(): void {
  ConfigProvider.config({ holderRender: (children) => createElement(ConfigProvider, { theme: { token: { motion: false } } }, children) });
}

export function useServer(baseUrl: string): void {
  configureApp({ apiOrigin: baseUrl, policyPollMs: 60_000 });
  clearSession();
  resetPolicy();
}

/** Records the path of every request the app sends (passing it on to the server); `restore()` stops recording. */
export function recordRequests(baseUrl: string): { calls: string[]; restore(): void } {
  const calls: string[] = [];
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    calls.push(String(input instanceof Request ? input.url : input).replace(baseUrl, ""));
    return real(input, init);
  });
  return { calls, restore: () => spy.mockRestore() };
}
