/**
 * `npm run bench -- browser`: the delivery budgets of issue 20, measured in Chromium on the built app
 * served by the real server (`server/main.ts` on a fresh embedded database with demo data).
 *
 * Every measurement runs in a fresh browser context (cold cache). Printed per page: the JavaScript
 * transferred (bytes on the wire, i.e. compressed when the server compresses), its file count, all bytes
 * transferred, and the largest contentful paint. A second visit of the list page in the same context
 * shows what the cache leaves to download. Figures, not a test: returns whether the budgets were met.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { buildBrowserAppIfStale } from "../server/build-app.ts";
import { DEMO_PASSWORD } from "../server/db/seed-demo.ts";
import { table } from "./stats.ts";
import { installPaintMarks, printWaterfall, readWaterfall, type Waterfall } from "./waterfall.ts";

const BUDGET = { loginJs: 100 * 1024, listJs: 300 * 1024, lcpMs: 1000 };
const LIST_USER = "admin"; // home: /company, the first list page

interface Transfer {
  url: string;
  type: string;
  bytes: number;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

async function startServer(root: string): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-browser-"));
  const port = 9900 + Math.floor(Math.random() * 90);
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1", DATABASE_URL: "", AUTH_RATE_LIMIT: "1000", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 480_000; // a fresh demo seed takes minutes on a loaded machine
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const up = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    baseUrl,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Records every response's encoded (wire) body size through the DevTools protocol. */
async function recordTransfers(context: BrowserContext, page: Page): Promise<Transfer[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const meta = new Map<string, { url: string; type: string; cached: boolean }>();
  const transfers: Transfer[] = [];
  cdp.on("Network.responseReceived", (e) => meta.set(e.requestId, { url: e.response.url, type: e.type, cached: e.response.fromDiskCache || e.response.fromPrefetchCache === true }));
  cdp.on("Network.requestServedFromCache", (e) => {
    const m = meta.get(e.requestId);
    if (m) m.cached = true;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const m = meta.get(e.requestId);
    if (m && !m.cached && e.encodedDataLength > 0) transfers.push({ url: m.url, type: m.type, bytes: e.encodedDataLength });
  });
  return transfers;
}

/** The largest contentful paint the page reported so far, in ms from navigation start. */
async function lcp(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let last = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) last = Math.max(last, e.startTime);
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve(last), 100);
      }),
  );
}

function summarize(name: string, transfers: Transfer[], lcpMs: number | undefined) {
  const js = transfers.filter((t) => t.type === "Script" || /\.js(\?|$)/.test(t.url));
  return {
    name,
    jsBytes: js.reduce((s, t) => s + t.bytes, 0),
    jsFiles: js.length,
    allBytes: transfers.reduce((s, t) => s + t.bytes, 0),
    files: transfers.length,
    lcpMs,
    urls: transfers.map((t) => new URL(t.url).pathname),
    largestJs: [...js].sort((a, b) => b.bytes - a.bytes).slice(0, 8),
  };
}

/** `waterfall`: also print where the cold loads' time went (bench/waterfall.ts). */
export async function benchBrowser(options: { waterfall?: boolean } = {}): Promise<boolean> {
  const root = process.cwd();
  await buildBrowserAppIfStale();
  // BENCH_URL: a server already running on this checkout (restarted after a rebuild: it lists dist/ when it starts), to compare builds without a fresh seed each time.
  const server = process.env.BENCH_URL ? { baseUrl: process.env.BENCH_URL, stop: async () => undefined } : await startServer(root);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const newContext = () => browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1366, height: 800 } });
    // Warm the server (first requests compile nothing, but PGlite and the policy warm up) in a throwaway context.
    {
      const c = await newContext();
      const p = await c.newPage();
      await p.goto("/login", { waitUntil: "networkidle" });
      await c.close();
    }

    // 1. /login, cold cache.
    const c1 = await newContext();
    const p1 = await c1.newPage();
    const t1 = await recordTransfers(c1, p1);
    const ops1 = options.waterfall ? await installPaintMarks(p1) : [];
    await p1.goto("/login", { waitUntil: "networkidle" });
    await p1.locator("#username").waitFor();
    const login = summarize("/login (cold)", [...t1], await lcp(p1));
    const waterfalls: [string, Waterfall][] = [];
    if (options.waterfall) waterfalls.push([login.name, await readWaterfall(p1, ops1)]);
    await c1.close();

    // 2. Sign in, then open the first list page in a fresh page of the signed-in context (cold cache
    //    for that page: the context's HTTP cache is emptied through the protocol first).
    const c2 = await newContext();
    const p2 = await c2.newPage();
    const clicked = await signInThroughForm(p2, LIST_USER);
    await p2.getByTestId("record-counter").waitFor();
    const signInToCounter = performance.now() - clicked;
    const listPath = new URL(p2.url()).pathname;
    const p3 = await c2.newPage();
    const cdp = await c2.newCDPSession(p3);
    await cdp.send("Network.clearBrowserCache");
    await p2.close();
    const t3 = await recordTransfers(c2, p3);
    const ops3 = options.waterfall ? await installPaintMarks(p3) : [];
    await p3.goto(listPath, { waitUntil: "networkidle" });
    await p3.getByTestId("record-counter").waitFor();
    const list = summarize(`${listPath} signed in (cold)`, [...t3], await lcp(p3));
    if (options.waterfall) waterfalls.push([list.name, await readWaterfall(p3, ops3)]);

    // 3. Second visit of the same page (warm cache): what is downloaded again.
    const p4 = await c2.newPage();
    const t4 = await recordTransfers(c2, p4);
    await p4.goto(listPath, { waitUntil: "networkidle" });
    await p4.getByTestId("record-counter").waitFor();
    const again = summarize(`${listPath} second visit`, [...t4], undefined);
    await c2.close();

    // 4. Issue 37's journeys as a member of staff feels them (signed in as ops_manager, warm server).
    const journeys = await staffJourneys(newContext, server.baseUrl);

    const rows = [login, list, again];
    console.log(
      table([
        ["page", "JS transferred", "JS files", "all transferred", "requests", "LCP"],
        ...rows.map((r) => [r.name, kb(r.jsBytes), String(r.jsFiles), kb(r.allBytes), String(r.files), r.lcpMs === undefined ? "–" : `${Math.round(r.lcpMs)} ms`]),
      ]),
    );
    console.log(`largest JS of ${list.name}: ${list.largestJs.map((t) => `${new URL(t.url).pathname.replace("/assets/", "")} ${kb(t.bytes)}`).join(", ")}`);
    console.log(`sign in → record counter on ${listPath}: ${Math.round(signInToCounter)} ms`);
    const staticAgain = again.urls.filter((u) => !/^\/(v1|api|auth|media|healthz)/.test(u));
    console.log(`second visit downloaded (besides API calls): ${staticAgain.join(", ") || "nothing"}`);
    for (const [name, w] of waterfalls) printWaterfall(name, w);
    console.log(table([["journey (issue 37)", "time"], ...journeys.map(([n, ms]) => [n, `${Math.round(ms)} ms`])]));

    const checks: [string, boolean][] = [
      [`/login JS ≤ ${kb(BUDGET.loginJs)}`, login.jsBytes <= BUDGET.loginJs],
      [`list JS ≤ ${kb(BUDGET.listJs)}`, list.jsBytes <= BUDGET.listJs],
      [`/login LCP < ${BUDGET.lcpMs} ms`, (login.lcpMs ?? Infinity) < BUDGET.lcpMs],
      [`list LCP < ${BUDGET.lcpMs} ms`, (list.lcpMs ?? Infinity) < BUDGET.lcpMs],
      ["second visit: only index.html", staticAgain.every((u) => !u.startsWith("/assets/"))],
    ];
    console.log(table([["budget", "met"], ...checks.map(([n, ok]) => [n, ok ? "yes" : "NO"])]));
    return checks.every(([, ok]) => ok);
  } finally {
    await browser.close();
    await server.stop();
  }
}

const JOURNEY_USER = "ops_manager";

/** Signs in on /login as the user; the moment Sign in was clicked (the page has left /login when this returns). */
async function signInThroughForm(page: Page, username: string): Promise<number> {
  await page.goto("/login", { waitUntil: "networkidle" });
  await page.locator("#username").fill(username);
  await page.locator("#password").fill(DEMO_PASSWORD);
  const clicked = performance.now();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  return clicked;
}

/**
 * Issue 37's "speed as felt", one sample each: sign-in to a usable home, a full page load (reload of a
 * signed-in list page), the first open of Create Account (the wizard's first field), and the server time of
 * creating a class (POST /api/v2/classes: its lessons generated) and of issuing a PA, timed from here against
 * the same server.
 */
async function staffJourneys(newContext: () => Promise<BrowserContext>, baseUrl: string): Promise<Array<[string, number]>> {
  const out: Array<[string, number]> = [];
  const context = await newContext();
  const page = await context.newPage();
  // usable: the home's list counter, or else its first button, on screen
  const usable = () => page.locator("main").getByRole("button").or(page.getByTestId("record-counter")).first().waitFor();
  let t = await signInThroughForm(page, JOURNEY_USER);
  await usable();
  const home = new URL(page.url()).pathname;
  out.push([`sign in as ${JOURNEY_USER} → home usable (${home})`, performance.now() - t]);

  t = performance.now();
  await page.reload();
  await usable();
  out.push([`full page load (reload ${home})`, performance.now() - t]);

  t = performance.now();
  await page.goto("/student-management/create-account");
  await page.locator("form input:visible").first().waitFor();
  out.push(["first Create Account (page → first field)", performance.now() - t]);
  await context.close();

  const headers = await adminHeaders(baseUrl);
  out.push(["create class: server time (POST /api/v2/classes)", await createClassServerTime(baseUrl, headers)]);
  out.push(["issue PA: server time (PUT /api/v2/finances/payment-advices/:id, action issue)", await issuePaServerTime(baseUrl, headers)]);
  return out;
}

type Headers = Record<string, string>;

async function adminHeaders(baseUrl: string): Promise<Headers> {
  const signIn = await fetch(`${baseUrl}/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: DEMO_PASSWORD }) });
  const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
  return { "content-type": "application/json", authorization: `Bearer ${token}` };
}

async function graphql<T>(baseUrl: string, headers: Headers, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${baseUrl}/v1/graphql`, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`bench query failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/**
 * Issuing a PA as the builder does: a draft for one open class's first term (not timed), then the issue call
 * (numbering, pricing, ledger posting) timed from here against the same server.
 */
async function issuePaServerTime(baseUrl: string, headers: Headers): Promise<number> {
  const { classes } = await graphql<{ classes: Array<{ id: string; companyId: string; branchId: string; lessons: Array<{ date: string; termId: string }> }> }>(
    baseUrl,
    headers,
    `{ classes(where: { classType: { _eq: "regular" }, classStatus: { _eq: "open" }, status: { _eq: "active" }, company: { shortName: { _eq: "BME" } },
         lessons: { lessonStatus: { _eq: "active" }, status: { _eq: "active" }, termId: { _is_null: false } } }, order_by: { id: asc }, limit: 1) {
         id companyId branchId lessons(where: { lessonStatus: { _eq: "active" }, status: { _eq: "active" }, termId: { _is_null: false } }, order_by: { date: asc }, limit: 1) { date termId } } }`,
  );
  const c = classes[0]!;
  const { users } = await graphql<{ users: Array<{ id: string }> }>(
    baseUrl,
    headers,
    // the student with the fewest PAs, so a later run on the same server (BENCH_URL) bills someone else
    `query($c: uuid!) { users(where: { type: { _eq: "student" }, status: { _eq: "active" }, companyId: { _eq: $c } }, order_by: [{ paymentAdvices_aggregate: { count: asc } }, { username: asc }], limit: 1) { id } }`,
    { c: c.companyId },
  );
  const today = new Date().toLocaleDateString("en-CA", { timeZone: "Asia/Singapore" });
  const plusDays = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);
  const fields = {
    studentId: users[0]!.id, companyId: c.companyId, branchId: c.branchId, issueDate: today, dueDate: plusDays(14), qrExpiryDate: plusDays(30), hasExpiryDate: true,
    isRegistrationFee: false, gst: 9, remarks: null,
    classInformations: [{
      id: c.id, lessonStartDate: c.lessons[0]!.date, termIds: [c.lessons[0]!.termId], discountIds: [], quantityAdditionalLesson: 0, additionalDiscount: 0, booterClassIds: [],
      otherPayments: [], deductions: [], deposits: [], deductedDeposit: [], isDeductedDeposit: false,
    }],
  };
  const draft = await fetch(`${baseUrl}/api/v2/finances/payment-advices/init`, { method: "POST", headers, body: JSON.stringify(fields) });
  if (draft.status !== 201) throw new Error(`PA draft answered ${draft.status}: ${await draft.text()}`);
  const { id, updatedAt } = ((await draft.json()) as { data: { id: string; updatedAt: string } }).data;
  const t = performance.now();
  const res = await fetch(`${baseUrl}/api/v2/finances/payment-advices/${id}`, { method: "PUT", headers, body: JSON.stringify({ ...fields, action: "issue", updatedAt }) });
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`issue PA answered ${res.status}: ${await res.text()}`);
  return ms;
}

async function createClassServerTime(baseUrl: string, headers: Headers): Promise<number> {
  const data = await graphql<{ calendars: Array<{ id: string; companyId: string; terms: Array<{ startDate: string }> }>; tutors: Array<{ id: string }> }>(
    baseUrl,
    headers,
    `{ calendars: academic_calendars(where: { category: { _eq: "weekly" }, status: { _eq: "active" } }, limit: 1) { id companyId terms(where: { status: { _eq: "active" } }, order_by: { startDate: asc }, limit: 1) { startDate } }
        tutors: users(where: { role: { _eq: "fulltime_tutor" } }, limit: 1) { id } }`,
  );
  const cal = data.calendars[0]!;
  const more = await graphql<{ programs: Array<{ id: string }>; classrooms: Array<{ id: string; branchId: string }>; earlier: Array<{ id: string }> }>(
    baseUrl,
    headers,
    `query($c: uuid!) { programs(where: { companyId: { _eq: $c }, status: { _eq: "active" } }, limit: 1) { id } classrooms(where: { branch: { companyId: { _eq: $c } }, status: { _eq: "active" } }, limit: 1) { id branchId }
       earlier: classes(where: { name: { _eq: "Bench class" } }) { id } }`,
    { c: cal.companyId },
  );
  // Each run on the same server (BENCH_URL) books its own half hour, before 23:00, so the classroom is free.
  const minutes = 23 * 60 - 30 * more.earlier.length;
  const at = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  const body = {
    name: "Bench class", programId: more.programs[0]!.id, academicCalendarId: cal.id, branchId: more.classrooms[0]!.branchId, classroomId: more.classrooms[0]!.id,
    tutorIds: [data.tutors[0]!.id], startDate: cal.terms[0]!.startDate, sessions: [{ startTime: at(minutes), endTime: at(minutes + 30) }],
  };
  const t = performance.now();
  const res = await fetch(`${baseUrl}/api/v2/classes`, { method: "POST", headers, body: JSON.stringify(body) });
  const ms = performance.now() - t;
  if (res.status !== 201) throw new Error(`create class answered ${res.status}: ${await res.text()}`);
  return ms;
}
