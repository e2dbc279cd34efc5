/**
 * `npm run bench -- browser --waterfall`: where a cold page load's time goes (issue 33). Read from the page's
 * own Resource Timing entries and paint marks, so every figure is in ms from the navigation's start, on the
 * same clock as the largest contentful paint:
 * - index.html answered, the last JS module and the last stylesheet/font loaded;
 * - the API calls (start → end), which shows whether they run in parallel or wait for each other;
 * - when the app shell (antd layout) and the list's first row were first in the DOM, and the LCP (with its element).
 * Then, one line a file, the whole waterfall.
 */
import type { Page } from "playwright-core";
import { table } from "./stats.ts";

interface Entry {
  path: string;
  kind: string;
  start: number;
  end: number;
  bytes: number;
}

export interface Waterfall {
  document: number;
  entries: Entry[];
  marks: Record<string, number>;
  lcp?: { time: number; element: string };
}

const API = /^\/(v1|api|auth|media)\//;

/**
 * Before the navigation: notes the first time the layout, a table row and the counter (with text) are in the
 * DOM, and keeps the LCP entries with a description of their element (it may have left the DOM when read).
 */
// A string, not a function: tsx would wrap the function's inner functions in a helper the page does not have.
const PAINT_MARKS = `(() => {
  const marks = {};
  const lcps = [];
  window.__benchMarks = { marks, lcps };
  const probes = [["spinner", "[data-testid=page-spinner], .boot-spinner"], ["layout", ".ant-layout"], ["first row", ".ant-table-tbody .ant-table-row"]];
  new MutationObserver(() => {
    for (const [name, selector] of probes) if (marks[name] === undefined && document.querySelector(selector)) marks[name] = performance.now();
  }).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const el = e.element;
      const cls = el && typeof el.className === "string" && el.className ? "." + el.className.split(" ")[0] : "";
      lcps.push({ time: e.startTime, element: el ? el.tagName.toLowerCase() + cls + ' "' + (el.textContent || "").trim().slice(0, 40) + '"' : "?" });
    }
  }).observe({ type: "largest-contentful-paint", buffered: true });
})();`;

/**
 * Before the navigation: notes the first time the spinner, the layout and a table row are in the DOM, keeps
 * the LCP entries with a description of their element (it may have left the DOM when read), and names each
 * GraphQL call by its operation (the order of the page's calls, matched to its timing entries).
 */
export async function installPaintMarks(page: Page): Promise<string[]> {
  await page.addInitScript({ content: PAINT_MARKS });
  const graphqlOps: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname !== "/v1/graphql" || r.method() !== "POST") return;
    const body = r.postData() ?? "";
    const named = /"operationName"\s*:\s*"([^"]+)"/.exec(body)?.[1];
    const field = /(?:query|mutation)[^{]*\{\s*([A-Za-z_0-9]+)/.exec(body.replace(/\\n/g, " "))?.[1];
    graphqlOps.push(named ?? field ?? "?");
  });
  return graphqlOps;
}

export async function readWaterfall(page: Page, graphqlOps: string[] = []): Promise<Waterfall> {
  const w = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const entries = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).map((r) => {
      const u = new URL(r.name);
      return { path: u.pathname.replace(/^\/assets\//, ""), kind: r.initiatorType, start: r.startTime, end: r.responseEnd, bytes: r.transferSize };
    });
    const { marks, lcps } = (window as unknown as { __benchMarks: { marks: Record<string, number>; lcps: { time: number; element: string }[] } }).__benchMarks;
    return { document: nav.responseEnd, entries, marks, lcp: lcps[lcps.length - 1] };
  });
  let op = 0;
  for (const e of w.entries) if (e.path === "/v1/graphql" && e.kind === "fetch") e.path += ` ${graphqlOps[op++] ?? ""}`;
  return w;
}

const ms = (n: number | undefined) => (n === undefined ? "–" : `${Math.round(n)} ms`);

export function printWaterfall(name: string, w: Waterfall): void {
  const js = w.entries.filter((e) => e.path.endsWith(".js"));
  const lastOf = (list: Entry[]) => list.reduce<Entry | undefined>((m, e) => (!m || e.end > m.end ? e : m), undefined);
  const lastJs = lastOf(js);
  const styles = w.entries.filter((e) => /\.(css|woff2?|ttf)$/.test(e.path));
  const api = w.entries.filter((e) => API.test(e.path)).sort((a, b) => a.start - b.start);
  // JS "waves": a module requested after another of the previous wave had arrived was (likely) found in it, so
  // it costs a round trip of its own on the critical path.
  let waves = 0;
  let waveFirstEnd = -Infinity;
  for (const e of [...js].sort((a, b) => a.start - b.start)) {
    if (e.start >= waveFirstEnd) {
      waves++;
      waveFirstEnd = e.end;
    } else waveFirstEnd = Math.min(waveFirstEnd, e.end);
  }
  console.log(`\nwaterfall of ${name} (ms from navigation start):`);
  console.log(
    table([
      ["step", "at"],
      ["index.html answered", ms(w.document)],
      [`last JS module answered (${js.length} files, ${waves} waves)${lastJs ? ` ${lastJs.path}` : ""}`, ms(lastJs?.end)],
      ...(styles.length ? [[`last stylesheet/font (${styles.length})`, ms(lastOf(styles)?.end)]] : []),
      ...api.map((e) => [`API ${e.path} (${e.kind})`, `${ms(e.start)} → ${ms(e.end)}`]),
      ...Object.entries(w.marks).sort((a, b) => a[1] - b[1]).map(([k, v]) => [`${k} in the DOM`, ms(v)]),
      [`LCP ${w.lcp?.element ?? ""}`, ms(w.lcp?.time)],
    ]),
  );
  console.log(
    table([
      ["file", "kind", "start", "end", "bytes"],
      ...[...w.entries].sort((a, b) => a.start - b.start).map((e) => [e.path, e.kind, String(Math.round(e.start)), String(Math.round(e.end)), String(e.bytes)]),
    ]),
  );
}
