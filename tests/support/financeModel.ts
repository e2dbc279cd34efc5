/**
 * The randomised workflow of the finance operations (issue 31 §9; FINANCE.md §4, §6, §7), model-based with
 * fast-check: random sequences of issue PA, pay (cash, card, credit note; overpay; the same request twice with one
 * Idempotency-Key; two at once), void receipt, void unpaid / paid PA, overpaid credit note, suspension → credit
 * note, withdrawal → refund — each by a role FINANCE.md §5 allows, through the REST API of the real server. After
 * every command the invariants are read from the database (`violations`) and a failing sequence shrinks to its
 * shortest form. Used by tests/server/finance-simulation.test.ts (a short run) and tests/simulate.ts
 * (`npm run simulate -- --runs N`). Vitest-free on purpose: the CLI runs it outside the test runner.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { Db } from "../../server/db/types.ts";
import { numericToCents, centsToNumeric } from "../../src/domain/money.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";
import { moneyModelViolations } from "./moneyModel.ts";
import { reconcile } from "../../server/finance/reconcile.ts";
import { VOIDED_WITH_PA_REASON } from "../../src/domain/finance/invoice.ts";
import { creditNoteTotals, overpaidNetOfGst } from "../../src/domain/finance/creditNote.ts";
import { spawnServer, type ChildServer, type TestServer } from "./server.ts";

/** The server of a run; `databaseUrl` (PostgreSQL) lets the simulation start a second server on the same database as a child process. */
export interface SimServer extends TestServer {
  databaseUrl?: string;
}

const ROLES = ["front_desk", "ops_manager", "finance_staff", "finance_manager", "sales"] as const;
export type Role = (typeof ROLES)[number];
const PASSWORD = "Demo@12345";

/** An HTTP answer, from the in-process server (inject) or from the child server (fetch). */
export interface Answer {
  statusCode: number;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, read field by field
  json(): any;
}

/** A student enrolled in an open regular class with lessons ahead (what PAs, suspensions and withdrawals act on). */
export interface SimStudent {
  studentId: string;
  classId: string;
  companyId: string;
  branchId: string;
  termId: string;
  start: string;
  lessons: string[];
}

export interface PaState {
  id: string;
  student: number;
  status: string;
  total: number;
  received: number;
  invoiceId: string | null;
  receipts: Array<{ id: string; amount: number; method: string; voided: boolean }>;
  updatedAt: string;
  /** The fields it was issued with (an edit sends them back changed). */
  fields: Record<string, unknown>;
}
export interface CnState {
  id: string;
  student: number;
  status: string;
  total: number;
  used: number;
  /** An overpaid credit note (money received) is never voided. */
  overpaid?: boolean;
  /** The PA a suspension credit note credits: once that PA is voided, the credit note is never voided. */
  pa?: string;
}
export interface Model {
  students: Array<{ withdrawn: boolean; suspended: boolean; delivered: boolean }>;
  /** This sequence may kill -9 the child server (one sequence in `killEvery`, once). */
  mayKill: boolean;
  pas: PaState[];
  cns: CnState[];
}
export interface Real {
  sim: Simulation;
  students: SimStudent[];
}

export class SimulationViolation extends Error {}

export interface SimOptions {
  /** Let the sequences kill -9 a child server mid-payment (PostgreSQL only). */
  kills?: boolean;
  /** With `kills`: only one sequence in `killEvery` may kill (default 1: every one); each kill costs a child server's start. */
  killEvery?: number;
  /**
   * When the whole-database checks (the money model and `npm run reconcile`'s reconciliation) run: after every
   * command (the default), or once at the end of each sequence — the long run's speed setting; the command's own
   * assertions and the per-student caps still run after every command.
   */
  fullCheck?: "command" | "sequence";
  /**
   * With `fullCheck: "sequence"`: the whole database is checked after every `wholeEvery` sequences (and before its
   * server is replaced); the sequences between are reconciled on their own students (the default 1: always whole).
   */
  wholeEvery?: number;
  /** Told of every failing sequence (shrinking included) as it happens. */
  onFailure?: (error: unknown, commands: string) => void;
  /**
   * Sequences served by one database before it is replaced by a fresh copy (default: never, while no sequence fails):
   * each adds its students and documents, and the whole-database checks read them all.
   */
  sequencesPerServer?: number;
}

export function fail(message: string): never {
  throw new SimulationViolation(message);
}

/** The figures of a run: what `npm run simulate` prints. */
export interface SimStats {
  sequences: number;
  commands: number;
  refused: number;
  byCommand: Record<string, number>;
  /** Refusals by command, status and message (expected outcomes the model predicted). */
  refusals: Record<string, number>;
  /** Requests cut by a kill -9 of the child server, and how their retry with the same key ended. */
  kills: Record<string, number>;
  /** Servers opened (a fresh copy of the seeded database each); the seeded students each one offers, and the students copied from them. */
  servers: number;
  studentsPerServer: number;
  copies: number;
  /** Where the time went (ms): API calls, the per-command checks, the whole-database checks, opening servers, starting child servers. */
  ms: { api: number; checks: number; fullChecks: number; open: number; child: number };
  /** API calls by route (ids left out): how many, and their ms. */
  routes: Record<string, { n: number; ms: number }>;
}

/**
 * One server and its students. A sequence takes fresh students (so it starts from a known state): the seeded ones
 * first (with the seeded documents they have), then copies of them made by SQL (`StudentFixture`), so a database
 * serves any number of sequences. It is opened again on a fresh copy of the seeded database (`open`) after a
 * failed sequence, and after `sequencesPerServer`.
 */
export class Simulation {
  server!: SimServer;
  private pool: SimStudent[] = [];
  /** Untouched copies of the seeded students (their enrolment and seats, no money), which the sequences' copies are made from in turn. */
  private templates: SimStudent[] = [];
  private fixture?: StudentFixture;
  private nextTemplate = 0;
  private sequencesOnServer = 0;
  private tokens = new Map<Role, { token: string; at: number }>();
  private addr = 0;
  /** The last sequence failed. */
  dirty = false;
  readonly stats: SimStats = { sequences: 0, commands: 0, refused: 0, byCommand: {}, refusals: {}, kills: {}, servers: 0, studentsPerServer: 0, copies: 0, ms: { api: 0, checks: 0, fullChecks: 0, open: 0, child: 0 }, routes: {} };
  /**
   * The child server on the same PostgreSQL database, and a spare: a sequence that may kill starts both in the
   * background (those missing), so neither the kill nor the retry right after it (to the spare, a server started on
   * the database the kill left) waits ~20 s for a start.
   */
  private child?: Promise<ChildServer>;
  private spare?: Promise<ChildServer>;

  constructor(
    private readonly open: () => Promise<SimServer>,
    /** On PostgreSQL the "concurrent" commands really run at once; on PGlite they are serialised by the engine. */
    readonly studentsPerSequence = 2,
    /** Checks not asserted (`npm run simulate -- --ignore <check>`: to look past a known defect); the test ignores none. */
    readonly ignore: ReadonlySet<string> = new Set(),
    readonly options: SimOptions = {},
  ) {}

  /** kill -9 commands run (PostgreSQL only: the child server shares the database). */
  get kills() {
    return !!this.options.kills && !!this.server?.databaseUrl;
  }

  async start() {
    const t0 = performance.now();
    this.server = await this.open();
    this.dirty = false;
    this.pool = await simulationStudents(this.server.db);
    this.fixture = new StudentFixture(this.server.db);
    this.templates = [];
    this.sequencesOnServer = 0;
    // every server opens a fresh copy of one seeded database: checked whole on the first copy only
    if (!this.stats.servers) {
      const before = await violations(this.server.db, []);
      if (Object.keys(before).length) throw new Error(`the seeded database breaks the money model before any command: ${JSON.stringify(before)}`);
    }
    this.tokens.clear();
    this.stats.servers++;
    this.stats.studentsPerServer = this.pool.length;
    if (this.pool.length < this.studentsPerSequence) throw new Error(`only ${this.pool.length} students with lessons ahead in the seeded data`);
    this.stats.ms.open += performance.now() - t0;
  }

  async close() {
    await this.stopChildren();
    await this.server?.close();
  }

  /** kill -9 of the child server; the spare (if any) becomes the child. */
  async stopChild() {
    const child = this.child;
    this.child = this.spare;
    this.spare = undefined;
    await child?.then((c) => c.kill(), () => {});
  }

  /** Stops the child and the spare (before the database they run on is replaced or dropped). */
  private async stopChildren() {
    await this.stopChild();
    await this.stopChild();
  }

  /** Starts the child and the spare in the background, those not running. */
  prepareChildren() {
    const start = () => {
      const started = spawnServer(this.server.databaseUrl!);
      // a start that fails is reported to whoever awaits it
      started.catch(() => {});
      return started;
    };
    this.child ??= start();
    this.spare ??= start();
  }

  /** A fresh world for one sequence: its students and an empty model. */
  async world(): Promise<{ model: Model; real: Real }> {
    // After a failed sequence the database may break an invariant for good: the next one (shrinking) starts afresh.
    if (this.dirty || this.replaceNext()) {
      await this.stopChildren();
      await this.server.close();
      await this.start();
    }
    this.sequencesOnServer++;
    const students = this.pool.length >= this.studentsPerSequence ? await this.seeded() : await this.copies();
    this.current = students;
    const mayKill = this.kills && this.stats.sequences % Math.max(1, this.options.killEvery ?? 1) === 0;
    if (mayKill) this.prepareChildren();
    this.stats.sequences++;
    return { model: { students: students.map(() => ({ withdrawn: false, suspended: false, delivered: false })), mayKill, pas: [], cns: [] }, real: { sim: this, students } };
  }

  /** The next sequence gets a fresh database. */
  private replaceNext() {
    const per = this.options.sequencesPerServer;
    return per !== undefined && this.sequencesOnServer >= per;
  }

  /** The next seeded students, each copied first as it is now (the copy, never used by a sequence, is a later copies' template). */
  private async seeded(): Promise<SimStudent[]> {
    const students = this.pool.splice(0, this.studentsPerSequence);
    const t0 = performance.now();
    for (const s of students) this.templates.push(await this.fixture!.copyOf(s));
    this.stats.ms.open += performance.now() - t0;
    return students;
  }

  /** Fresh copies of seeded students, each of another one in turn (the same template twice only with fewer templates than students). */
  private async copies(): Promise<SimStudent[]> {
    const t0 = performance.now();
    const out: SimStudent[] = [];
    for (let k = 0; k < this.studentsPerSequence; k++) out.push(await this.fixture!.copyOf(this.templates[this.nextTemplate++ % this.templates.length]!));
    this.stats.copies += out.length;
    this.stats.ms.open += performance.now() - t0;
    return out;
  }

  /** The students of the running sequence. */
  current: SimStudent[] = [];

  /** The whole-database checks at the end of a sequence (when they do not run after every command). */
  async endOfSequence() {
    if (this.options.fullCheck !== "sequence") return;
    // whole every so many sequences, and before the pool runs out (the next sequence replaces the server)
    const whole = ++this.sinceWhole >= (this.options.wholeEvery ?? 1) || this.replaceNext();
    await this.check(whole ? null : this.current.map((s) => s.studentId), "at the end of the sequence");
  }

  /** The whole database checked, unless it was at the end of the last sequence (the run's last check). */
  async finalCheck() {
    if (this.options.fullCheck === "sequence" && this.sinceWhole > 0 && !this.dirty) await this.check(null, "at the end of the run");
  }

  /** Sequences ended since the last whole-database check. */
  private sinceWhole = 0;

  private async check(students: string[] | null, when: string) {
    const t0 = performance.now();
    const found = await violations(this.server.db, students ?? this.current.map((s) => s.studentId), true, students === null);
    if (students === null) this.sinceWhole = 0;
    this.stats.ms[students === null ? "fullChecks" : "checks"] += performance.now() - t0;
    for (const check of this.ignore) delete found[check];
    if (Object.keys(found).length) fail(`${when}${students === null ? " (whole database)" : ""}: ${JSON.stringify(found)}`);
  }

  async token(role: Role): Promise<string> {
    const held = this.tokens.get(role);
    if (held && Date.now() - held.at < 5 * 60_000) return held.token;
    this.addr++;
    const res = await this.server.app.inject({ method: "POST", url: "/auth/sign-in", payload: { username: role, password: PASSWORD }, headers: { "x-forwarded-for": `10.250.${(this.addr >> 8) & 255}.${this.addr & 255}` } });
    if (res.statusCode !== 200) throw new Error(`sign-in as ${role} failed: ${res.statusCode} ${res.body}`);
    const token = res.json().data.accessToken as string;
    this.tokens.set(role, { token, at: Date.now() });
    return token;
  }

  /**
   * An /api/v2 call as `role`; `key` sends an Idempotency-Key header. A 5xx answer is a violation, and so is a
   * 401/403 unless `forbidden` says the model predicts it (four eyes).
   */
  async call(role: Role, method: string, url: string, body?: unknown, key?: string, forbidden = false): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.token(role)}` };
    if (key) headers["idempotency-key"] = key;
    const t0 = performance.now();
    const res = await this.server.app.inject({ method: method as "GET", url: `/api/v2${url}`, headers, ...(body !== undefined ? { payload: body as object } : {}) });
    const ms = performance.now() - t0;
    this.stats.ms.api += ms;
    const route = (this.stats.routes[`${method} ${url.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ":id")}`] ??= { n: 0, ms: 0 });
    route.n++;
    route.ms += ms;
    return this.judge(res, role, method, url, forbidden);
  }

  private judge(res: Answer, role: Role, method: string, url: string, forbidden: boolean): Answer {
    if (res.statusCode >= 500) fail(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    if (!forbidden && (res.statusCode === 401 || res.statusCode === 403)) fail(`${method} ${url} as ${role} was refused ${res.statusCode} (FINANCE.md §5 allows it): ${res.body}`);
    return res;
  }

  /** Starts the child server on this run's PostgreSQL database (server/main.ts: migrations and ledger backfill run on start). */
  async startChild(): Promise<ChildServer> {
    if (!this.server.databaseUrl) throw new Error("the child server needs PostgreSQL");
    this.child ??= spawnServer(this.server.databaseUrl);
    const t0 = performance.now();
    const child = await this.child;
    // the time waited for a start (none when it was up already)
    this.stats.ms.child += performance.now() - t0;
    return child;
  }

  /**
   * A token for the child server: the in-process server's (both verify against the signing keys and sessions in the
   * shared database), so a child started after a kill needs no sign-in.
   */
  async childToken(role: Role): Promise<string> {
    await this.startChild();
    return this.token(role);
  }

  /** The same call sent over HTTP to the child server; rejects if the connection is cut (the child was killed). */
  async callChild(role: Role, method: string, url: string, body: unknown, key: string, headers: Record<string, string> = {}): Promise<Answer> {
    const child = await this.startChild();
    const token = await this.childToken(role);
    const res = await fetch(`${child.baseUrl}/api/v2${url}`, { method, headers: { authorization: `Bearer ${token}`, "idempotency-key": key, "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    const text = await res.text();
    return this.judge({ statusCode: res.status, body: text, json: () => JSON.parse(text) }, role, method, url, false);
  }

  /** Counts a command; `refusals`: the 4xx answers the model predicted (each counted by status and message). */
  count(name: string, ...refusals: Array<Answer | undefined>) {
    this.stats.commands++;
    this.stats.byCommand[name] = (this.stats.byCommand[name] ?? 0) + 1;
    const refused = refusals.filter((a): a is Answer => !!a && a.statusCode >= 400);
    if (refused.length) this.stats.refused++;
    for (const a of refused) {
      const kind = `${name}: ${a.statusCode} ${String(safeJson(a)?.message ?? a.body).slice(0, 90)}`;
      this.stats.refusals[kind] = (this.stats.refusals[kind] ?? 0) + 1;
    }
  }
}

/** The columns of a table, in order (the fixture copies rows column by column). */
async function columnsOf(db: Db, table: string): Promise<string[]> {
  const { rows } = await db.query<{ c: string }>(`select column_name as c from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`, [table]);
  return rows.map((r) => r.c);
}

/** `insert into t (cols) select cols from t …` with some columns replaced by expressions. */
const copyRows = (table: string, cols: string[], set: Record<string, string>, where: string) =>
  `insert into ${table} (${cols.map((c) => `"${c}"`).join(", ")}) select ${cols.map((c) => set[c] ?? `"${c}"`).join(", ")} from ${table} where ${where}`;

/**
 * The sequence's fresh students, made by SQL (catalogue rows, no money): for each, a copy of a seeded student
 * (`template`) enrolled in the same class, with the same lesson seats (past and ahead) — the state the template had
 * before any money, so every sequence starts from the same known world on a database reused across sequences.
 */
export class StudentFixture {
  private cols?: { users: string[]; student_classes: string[]; lessons_students: string[] };
  private made = 0;
  constructor(private readonly db: Db) {}

  async copyOf(t: SimStudent): Promise<SimStudent> {
    this.cols ??= { users: await columnsOf(this.db, "users"), student_classes: await columnsOf(this.db, "student_classes"), lessons_students: await columnsOf(this.db, "lessons_students") };
    const studentId = randomUUID();
    const enrolmentId = randomUUID();
    const n = ++this.made;
    await this.db.query(copyRows("users", this.cols.users, { id: "$2::uuid", username: `"username" || '-sim-' || $3::text`, createdAt: "now()", updatedAt: "now()" }, "id = $1::uuid"), [t.studentId, studentId, `${process.pid}-${n}`]);
    await this.db.query(copyRows("student_classes", this.cols.student_classes, { id: "$2::uuid", userId: "$3::uuid", paymentAdviceId: "null" }, `"userId" = $1::uuid and "classId" = $4::uuid`), [t.studentId, enrolmentId, studentId, t.classId]);
    await this.db.query(
      copyRows("lessons_students", this.cols.lessons_students, { id: "gen_random_uuid()", studentId: "$2::uuid", studentClassId: "$3::uuid" }, `"studentId" = $1::uuid and "lessonId" in (select id from lessons where "classId" = $4::uuid)`),
      [t.studentId, studentId, enrolmentId, t.classId],
    );
    return { ...t, studentId };
  }
}

/** Students enrolled in an open regular class of BME with ≥ 4 lessons of one term ahead, not attended; one row per student. */
export async function simulationStudents(db: Db): Promise<SimStudent[]> {
  const { rows } = await db.query<SimStudent & { lessons: string[] }>(
    `select distinct on (sc."userId") sc."userId" as "studentId", c.id as "classId", c."companyId", c."branchId", l."termId",
       (select min(x.date)::text from lessons x where x."classId" = c.id and x."termId" = l."termId" and x.status = 'active' and x."lessonStatus" = 'active') as start,
       json_agg(l.date::text order by l.date) as lessons
     from student_classes sc join classes c on c.id = sc."classId"
       join lessons_students ls on ls."studentId" = sc."userId" and ls.type = 'enrolled' and ls.status = 'not_attended'
       join lessons l on l.id = ls."lessonId" and l."classId" = c.id and l.status = 'active' and l."lessonStatus" = 'active' and l."termId" is not null
         and l.date > (now() at time zone 'Asia/Singapore')::date
       join users u on u.id = sc."userId" and u.status = 'active' and u."companyId" = c."companyId"
     where sc.status = 'enrolled' and c."classType" = 'regular' and c."classStatus" = 'open' and c.status = 'active'
       and c."companyId" = (select id from companies where "shortName" = 'BME')
     group by sc."userId", c.id, l."termId" having count(*) >= 4
     order by sc."userId", count(*) desc, c.id`,
  );
  return rows;
}

function safeJson(a: Answer): { message?: unknown } | undefined {
  try {
    return a.json();
  } catch {
    return undefined;
  }
}

export const cents = (v: string | null | undefined) => numericToCents(v ?? "0") ?? 0;
export const money = (c: number) => centsToNumeric(c);
export const plusDays = (n: number) => new Date(Date.parse(`${todayInSingapore()}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);
const paStatusFor = (total: number, received: number) => (received <= 0 || received < total ? "unpaid" : received === total ? "paid" : "overpaid");
export const live = (pa: PaState) => pa.status === "unpaid" || pa.status === "paid" || pa.status === "overpaid";

/** Reads back every document of the sequence (statuses change by other commands: a withdrawal edits unpaid PAs), three queries in all. */
export async function sync(m: Model, r: Real) {
  const db = r.sim.server.db;
  if (m.pas.length) {
    const ids = m.pas.map((pa) => pa.id);
    const { rows } = await db.query<{ id: string; status: string; total: string; updatedAt: string; invoiceId: string | null }>(
      `select pa.id, pa."paymentStatus" as status, pa."paymentSummaryStatic"->>'totalPayable' as total, pa."updatedAt"::text as "updatedAt",
         (select i.id from invoices i where i."paymentAdviceId" = pa.id and i.status <> 'deleted' and i."invoiceStatus" <> 'voided' order by i."createdAt" desc limit 1) as "invoiceId"
       from payment_advices pa where pa.id = any($1::uuid[])`,
      [ids],
    );
    const receipts = await db.query<{ pa: string; id: string; amount: string; method: string; status: string }>(
      `select "paymentAdviceId" as pa, id, amount::text, "paymentMethod" as method, status from receipts where "paymentAdviceId" = any($1::uuid[]) order by "createdAt", name`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const pa of m.pas) {
      const row = byId.get(pa.id)!;
      pa.status = row.status;
      pa.total = cents(row.total);
      pa.updatedAt = row.updatedAt;
      pa.invoiceId = row.invoiceId;
      pa.receipts = receipts.rows.filter((x) => x.pa === pa.id).map((x) => ({ id: x.id, amount: cents(x.amount), method: x.method, voided: x.status !== "active" }));
      pa.received = pa.receipts.filter((x) => !x.voided).reduce((sum, x) => sum + x.amount, 0);
    }
  }
  if (m.cns.length) {
    const { rows } = await db.query<{ id: string; status: string; total: string; used: string }>(
      `select id, "creditNoteStatus" as status, summary->>'total' as total, "usedAmount"::text as used from credit_notes where id = any($1::uuid[])`,
      [m.cns.map((cn) => cn.id)],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const cn of m.cns) {
      const row = byId.get(cn.id)!;
      cn.status = row.status;
      cn.total = cents(row.total);
      cn.used = cents(row.used);
    }
  }
}

/**
 * The invariants of FINANCE.md §6 that can be read from the documents, by check name → offending documents.
 * `studentIds`: the students of the running sequence (the per-student cap is checked for them); `full`: the money
 * model's checks and the reconciliation too, of the whole database (`whole`) or of those students (cheaper: ~65 ms
 * against ~1.4 s on PostgreSQL, several times that on PGlite).
 */
export async function violations(db: Db, studentIds: string[], full = true, whole = true): Promise<Record<string, string[]>> {
  const out = full ? await moneyModelViolations(db) : {};
  // The money-model check "money out over money in" counts the payments a void of a paid PA voided as gone, while
  // FINANCE.md §4 turns them into the student's credit: that money was received. The cap below counts it.
  delete out["money out over money in"];
  // between whole checks, the documents of the sequence's students only (by their indexed student columns)
  const mine = (column: string) => (whole ? "true" : `${column} = any($1::uuid[])`);
  const checks: Record<string, string> = {
    "credit note used over its total": `select name from credit_notes where ${mine('"studentId"')} and status <> 'deleted' and "usedAmount" > coalesce((summary->>'total')::numeric, 0)`,
    "credit note used but nothing left": `select name from credit_notes where ${mine('"studentId"')} and status <> 'deleted' and "creditNoteStatus" = 'used' and "usedAmount" < (summary->>'total')::numeric
      and not exists (select 1 from refunds r where r."refundStatus" = 'refunded' and r."creditNoteIds" ? credit_notes.id::text)`,
    // FINANCE.md §6 cap, per student: credit notes issued or used + refunds paid out (less the credit notes they
    // include, counted already) ≤ money received (live payments, and those a void of their paid PA turned into credit)
    "student: money out over money in": `select u.id::text as name from users u
      where u.id = any($1::uuid[]) and
        (select coalesce(sum((summary->>'total')::numeric), 0) from credit_notes where "studentId" = u.id and status = 'active' and "creditNoteStatus" in ('issued', 'used'))
        + (select coalesce(sum((r.summary->>'total')::numeric - coalesce((select sum((c.summary->>'total')::numeric) from credit_notes c where r."creditNoteIds" ? c.id::text), 0)), 0)
           from refunds r where r."studentId" = u.id and r.status = 'active' and r."refundStatus" = 'refunded')
        > (select coalesce(sum(p.amount), 0) from invoice_payments p join receipts rc on rc.id = p."receiptId"
           where rc."studentId" = u.id and (p.status <> 'deleted' or left(rc."voidReason", ${VOIDED_WITH_PA_REASON.length}) = '${VOIDED_WITH_PA_REASON}'))`,
    "refund total over its parts": `select coalesce(name, id::text) as name from refunds where ${mine('"studentId"')} and status = 'active' and "refundStatus" = 'refunded'
      and (summary->>'total')::numeric <> (summary->>'classAmount')::numeric + (summary->>'creditNoteAmount')::numeric + (summary->>'depositAmount')::numeric`,
  };
  for (const [check, sql] of Object.entries(checks)) {
    const { rows } = await db.query<{ name: string }>(sql, sql.includes("$1") ? [studentIds] : []);
    if (rows.length) out[check] = rows.slice(0, 10).map((r) => r.name);
  }
  if (full) Object.assign(out, await extraChecks(db, whole ? null : studentIds));
  return out;
}

/** The ledger's reconciliation (FINANCE.md §7, `npm run reconcile`; of the students given, or whole): every difference, by check, with its document numbers. */
export async function extraChecks(db: Db, students: string[] | null = null): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const d of await reconcile(db, students)) (out[`reconcile: ${d.check}`] ??= []).push(`${d.subject}: ${d.message}`);
  return out;
}

/** After a command: the model reads the documents back, then the invariants; `full` forces the whole-database checks. */
export async function afterCommand(m: Model, r: Real, name: string, full = r.sim.options.fullCheck !== "sequence") {
  const t0 = performance.now();
  await sync(m, r);
  // whole after every command (--full-check command), else of the sequence's students (a kill's checks) between whole checks
  const whole = full && (r.sim.options.fullCheck !== "sequence" || (r.sim.options.wholeEvery ?? 1) <= 1);
  const found = await violations(r.sim.server.db, r.students.map((s) => s.studentId), full, whole);
  r.sim.stats.ms[whole ? "fullChecks" : "checks"] += performance.now() - t0;
  for (const check of r.sim.ignore) delete found[check];
  if (Object.keys(found).length) fail(`after ${name}: ${JSON.stringify(found)}`);
}

export const expectStatus = (res: Answer, ok: number[], what: string) => {
  if (!ok.includes(res.statusCode)) fail(`${what}: expected ${ok.join("/")}, got ${res.statusCode} ${res.body}`);
};
export type Cmd = fc.AsyncCommand<Model, Real, false>;

/** Every PA of the simulation is issued at this GST rate. */
const SIM_GST = 9 as const;

/** The fields of a PA for the student's class and term; `depositIds`: paid deposits it deducts. */
export function paFieldsFor(s: SimStudent, deposit: boolean, depositIds: string[] = []): Record<string, unknown> {
  return {
    studentId: s.studentId, companyId: s.companyId, branchId: s.branchId, issueDate: todayInSingapore(), dueDate: plusDays(14), qrExpiryDate: plusDays(30), hasExpiryDate: true,
    isRegistrationFee: false, gst: SIM_GST, remarks: null,
    classInformations: [{
      id: s.classId, lessonStartDate: s.start, termIds: [s.termId], discountIds: [], quantityAdditionalLesson: 0, additionalDiscount: 0, booterClassIds: [],
      otherPayments: [], deductions: [], deposits: deposit ? [{ name: "Deposit", amount: "50.00" }] : [],
      deductedDeposit: depositIds.map((depositId) => ({ name: "Deposit", depositId })), isDeductedDeposit: depositIds.length > 0,
    }],
  };
}

/** The student's paid deposits not deducted on a live PA nor refunded (what a PA may deduct). */
export async function paidDeposits(r: Real, i: number): Promise<string[]> {
  const { rows } = await r.sim.server.db.query<{ id: string }>(`select id from deposits where "studentId" = $1 and "depositStatus" = 'paid' and status <> 'deleted' order by name`, [r.students[i]!.studentId]);
  return rows.map((d) => d.id);
}

/** A draft PA made by front desk (201 expected). */
export async function draftPa(r: Real, fields: Record<string, unknown>) {
  const draft = await r.sim.call("front_desk", "POST", "/finances/payment-advices/init", fields, randomUUID());
  expectStatus(draft, [201], "PA draft");
  return draft.json().data as { id: string; updatedAt: string };
}

/** Front desk creates a PA for the student's class and term (sometimes with a S$50 deposit, or deducting the student's paid deposits) and issues it. */
export class IssuePa implements Cmd {
  constructor(readonly student: number, readonly deposit: boolean, readonly deduct = false) {}
  check(m: Model) {
    return !m.students[this.student % m.students.length]!.withdrawn && m.pas.length < 6;
  }
  async run(m: Model, r: Real) {
    const i = this.student % m.students.length;
    const s = r.students[i]!;
    const fields = paFieldsFor(s, this.deposit, this.deduct ? await paidDeposits(r, i) : []);
    const draft = await draftPa(r, fields);
    const issued = await r.sim.call("front_desk", "PUT", `/finances/payment-advices/${draft.id}`, { ...fields, action: "issue", updatedAt: draft.updatedAt }, randomUUID());
    expectStatus(issued, [200], "PA issue");
    const data = issued.json().data;
    if (data.paymentStatus !== "unpaid" || !data.name) fail(`issued PA is ${data.paymentStatus} named ${data.name}`);
    m.pas.push({ id: data.id, student: i, status: "unpaid", total: 0, received: 0, invoiceId: null, receipts: [], updatedAt: "", fields });
    r.sim.count(this.deduct ? "issue PA deducting deposits" : "issue PA");
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `IssuePa(student ${this.student}${this.deposit ? ", deposit" : ""}${this.deduct ? ", deducting paid deposits" : ""})`;
  }
}

/**
 * An unpaid PA is edited (additional discount, extra lessons) by a role that may edit it, sometimes after its
 * invoice was issued without a payment: with nothing received the edit is saved and the invoice follows the new
 * total (FINANCE.md §4); with a payment it is refused (400) and nothing changes.
 */
export class EditPa implements Cmd {
  constructor(readonly pa: number, readonly invoiceFirst: boolean, readonly change: "discount" | "lessons", readonly role: "front_desk" | "ops_manager" | "finance_staff") {}
  private pick(m: Model) {
    const c = m.pas.filter((p) => p.status === "unpaid" && !m.students[p.student]!.withdrawn);
    return c.length ? c[this.pa % c.length] : undefined;
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const pa = this.pick(m)!;
    let invoiced: Answer | undefined;
    if (this.invoiceFirst && !pa.invoiceId) {
      invoiced = await r.sim.call(this.role, "POST", "/finances/invoices", { paymentAdviceId: pa.id }, randomUUID());
      expectStatus(invoiced, [201], "invoice without a payment");
      await sync(m, r);
    }
    const before = { total: pa.total, received: pa.received };
    const card = (pa.fields.classInformations as Array<Record<string, unknown>>)[0]!;
    const changed = this.change === "discount" ? { additionalDiscount: Number(card.additionalDiscount ?? 0) + 10 } : { quantityAdditionalLesson: Number(card.quantityAdditionalLesson ?? 0) + 1 };
    const fields = { ...pa.fields, classInformations: [{ ...card, ...changed }] };
    const res = await r.sim.call(this.role, "PUT", `/finances/payment-advices/${pa.id}`, { ...fields, action: "save", updatedAt: pa.updatedAt }, randomUUID());
    expectStatus(res, before.received > 0 ? [400] : [200], `edit unpaid PA with ${money(before.received)} received`);
    await sync(m, r);
    if (res.statusCode === 200) {
      pa.fields = fields;
      if (pa.total === before.total) fail(`editing the PA (${this.change}) left its total at ${money(pa.total)}`);
    } else if (pa.total !== before.total) fail(`a refused edit changed the PA's total`);
    if (pa.invoiceId) {
      const { rows } = await r.sim.server.db.query<{ total: string }>(`select total::text from invoices where id = $1`, [pa.invoiceId]);
      if (cents(rows[0]!.total) !== pa.total) fail(`invoice total ${rows[0]!.total} after the PA's total became ${money(pa.total)}`);
    }
    r.sim.count("edit unpaid PA", res);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `EditPa(pa ${this.pa}, ${this.change}${this.invoiceFirst ? ", invoice issued first" : ""}, ${this.role})`;
  }
}

export type PayMode = "once" | "same key twice" | "same key at once" | "two at once" | "twice without a key";
export type PayAmount = "part" | "rest" | "over";

/** Front desk (or finance staff) records a payment on a live PA: the first one issues the invoice with it. */
export class Pay implements Cmd {
  constructor(readonly pa: number, readonly method: "cash" | "credit_card" | "nets", readonly amount: PayAmount, readonly mode: PayMode, readonly role: "front_desk" | "finance_staff") {}
  private target(m: Model) {
    const open = m.pas.filter((p) => p.status === "unpaid");
    return open.length ? open[this.pa % open.length] : undefined;
  }
  check(m: Model) {
    return !!this.target(m);
  }
  async run(m: Model, r: Real) {
    const pa = this.target(m)!;
    const balance = pa.total - pa.received;
    const amount = this.amount === "part" ? Math.max(1, Math.floor(balance / 3)) : this.amount === "rest" ? balance : balance + 1001;
    const body = { amount: money(amount), paymentMethod: this.method, ...(this.method === "credit_card" ? { cardType: "visa" } : {}), referenceNo: "sim" };
    // Before an invoice exists, the first payment issues it: "two at once" then also races the invoice's creation.
    const send = (key: string) =>
      pa.invoiceId
        ? r.sim.call(this.role, "POST", `/finances/invoices/${pa.invoiceId}/payments`, body, key)
        : r.sim.call(this.role, "POST", "/finances/invoices", { paymentAdviceId: pa.id, payment: body }, key);
    const key = randomUUID();
    let answers: Answer[];
    if (this.mode === "once") answers = [await send(key)];
    else if (this.mode === "same key twice") answers = [await send(key), await send(key)];
    else if (this.mode === "same key at once") answers = await Promise.all([send(key), send(key)]);
    // without a key the server cannot tell a double submit from two payments: both are recorded (FINANCE.md §1)
    else if (this.mode === "twice without a key") answers = [await send(""), await send("")];
    else answers = await Promise.all([send(key), send(randomUUID())]);
    for (const a of answers) expectStatus(a, [201], `payment ${this.mode}`);
    if (this.mode !== "two at once" && this.mode !== "twice without a key" && new Set(answers.map((a) => a.body)).size !== 1) fail(`a repeat with the same key answered differently: ${answers.map((a) => a.body).join(" | ")}`);
    const times = this.mode === "two at once" || this.mode === "twice without a key" ? 2 : 1;
    const before = pa.received;
    await sync(m, r);
    const { rows } = await r.sim.server.db.query<{ n: number }>(`select count(*)::int as n from invoices where "paymentAdviceId" = $1 and status <> 'deleted' and "invoiceStatus" <> 'voided'`, [pa.id]);
    if (rows[0]!.n !== 1) fail(`PA has ${rows[0]!.n} live invoices after ${this.mode}`);
    if (pa.received !== before + times * amount) fail(`received ${money(pa.received)} after paying ${money(amount)} × ${times} on ${money(before)}`);
    if (pa.status !== paStatusFor(pa.total, pa.received)) fail(`PA ${pa.status} with ${money(pa.received)} of ${money(pa.total)}`);
    r.sim.count("pay");
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `Pay(pa ${this.pa}, ${this.method}, ${this.amount}, ${this.mode}, ${this.role})`;
  }
}

/**
 * Pays unpaid PAs of the student with an issued credit note. "race": two PAs at once, each for as much as the
 * credit note has left — it can pay only one of them (FINANCE.md §7: never spend the same money twice).
 */
export class PayByCreditNote implements Cmd {
  constructor(readonly cn: number, readonly race: boolean) {}
  private pick(m: Model) {
    const usable = m.cns.filter((c) => c.status === "issued" && c.total - c.used > 0 && m.pas.some((p) => p.student === c.student && p.status === "unpaid"));
    if (!usable.length) return undefined;
    const cn = usable[this.cn % usable.length]!;
    return { cn, pas: m.pas.filter((p) => p.student === cn.student && p.status === "unpaid").slice(0, this.race ? 2 : 1) };
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const { cn, pas } = this.pick(m)!;
    const left = cn.total - cn.used;
    const tries = pas.map((pa) => ({ pa, amount: Math.min(left, pa.total - pa.received) }));
    const answers = await Promise.all(
      tries.map(({ pa, amount }) => {
        const body = { amount: money(amount), paymentMethod: "credit_note", creditNoteId: cn.id };
        return pa.invoiceId
          ? r.sim.call("front_desk", "POST", `/finances/invoices/${pa.invoiceId}/payments`, body, randomUUID())
          : r.sim.call("front_desk", "POST", "/finances/invoices", { paymentAdviceId: pa.id, payment: body }, randomUUID());
      }),
    );
    for (const a of answers) expectStatus(a, [201, 400], "payment by credit note");
    const spent = tries.filter((_, k) => answers[k]!.statusCode === 201).reduce((s, t) => s + t.amount, 0);
    if (answers[0]!.statusCode !== 201 && answers.every((a) => a.statusCode !== 201)) fail(`no payment by a credit note with ${money(left)} left: ${answers.map((a) => a.body).join(" | ")}`);
    const usedBefore = cn.used;
    await sync(m, r);
    if (spent > left) fail(`credit note with ${money(left)} left paid ${money(spent)}`);
    if (cn.used !== usedBefore + spent) fail(`credit note used ${money(cn.used)}, expected ${money(usedBefore + spent)}`);
    if (cn.status !== (cn.used === cn.total ? "used" : "issued")) fail(`credit note ${cn.status} with ${money(cn.used)} of ${money(cn.total)} used`);
    r.sim.count("pay by credit note", ...answers);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `PayByCreditNote(cn ${this.cn}${this.race ? ", two PAs at once" : ""})`;
  }
}

/** Finance staff voids an active receipt; the money leaves the invoice (a credit note it used is given back). */
export class VoidReceipt implements Cmd {
  constructor(readonly receipt: number) {}
  private pick(m: Model) {
    const all = m.pas.filter(live).flatMap((pa) => pa.receipts.filter((x) => !x.voided).map((x) => ({ pa, x })));
    return all.length ? all[this.receipt % all.length] : undefined;
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const { pa, x } = this.pick(m)!;
    const before = pa.received;
    const res = await r.sim.call("finance_staff", "POST", `/finances/receipts/${x.id}/void`, { reason: "Simulation: wrong amount" }, randomUUID());
    expectStatus(res, [200, 400, 409], "void receipt");
    await sync(m, r);
    if (res.statusCode === 200 && pa.received !== before - x.amount) fail(`received ${money(pa.received)} after voiding ${money(x.amount)} of ${money(before)}`);
    if (res.statusCode !== 200 && pa.received !== before) fail(`a refused void changed the amount received`);
    r.sim.count("void receipt", res);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `VoidReceipt(${this.receipt})`;
  }
}

/** Ops manager voids an unpaid PA with nothing received. */
export class VoidUnpaidPa implements Cmd {
  constructor(readonly pa: number) {}
  private pick(m: Model) {
    const c = m.pas.filter((p) => p.status === "unpaid" && p.received === 0);
    return c.length ? c[this.pa % c.length] : undefined;
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const pa = this.pick(m)!;
    const res = await r.sim.call("ops_manager", "POST", "/finances/payment-advices/void-unpaid", { id: pa.id, reason: "Simulation: billed by mistake", updatedAt: pa.updatedAt }, randomUUID());
    expectStatus(res, [200], "void unpaid PA");
    await sync(m, r);
    if (pa.status !== "voided") fail(`void unpaid left the PA ${pa.status}`);
    r.sim.count("void unpaid PA");
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `VoidUnpaidPa(${this.pa})`;
  }
}

/** The finance manager voids a paid or overpaid PA: the money received becomes an issued credit note (less what was credited). */
export class VoidPaidPa implements Cmd {
  constructor(readonly pa: number) {}
  private pick(m: Model) {
    const c = m.pas.filter((p) => p.status === "paid" || p.status === "overpaid");
    return c.length ? c[this.pa % c.length] : undefined;
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const pa = this.pick(m)!;
    const received = pa.received;
    const credited = m.cns.filter((c) => c.student === pa.student && ["issued", "used"].includes(c.status)).length;
    const res = await r.sim.call("finance_manager", "PATCH", "/finances/payment-advices/void-paid-pa", { id: pa.id, reason: "Simulation: wrong class", updatedAt: pa.updatedAt }, randomUUID());
    // 409: a credit note or refund from its receipts still awaits a decision (a race or four eyes left it there)
    expectStatus(res, [200, 400, 409], "void paid PA");
    if (res.statusCode === 200) {
      const cn = res.json().data.creditNote as { id: string; total: string } | null;
      if (cn) {
        if (cents(cn.total) > received) fail(`void paid PA credited ${cn.total} for ${money(received)} received`);
        m.cns.push({ id: cn.id, student: pa.student, status: "issued", total: cents(cn.total), used: 0, overpaid: true });
      } else if (!credited) fail(`void paid PA with ${money(received)} received and nothing credited made no credit note`);
    }
    await sync(m, r);
    if (res.statusCode === 200 && (pa.status !== "voided" || pa.received !== 0)) fail(`void paid left the PA ${pa.status} with ${money(pa.received)} received`);
    r.sim.count("void paid PA", res);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `VoidPaidPa(${this.pa})`;
  }
}

/** Finance staff makes the overpaid credit note from a receipt of an overpaid PA; the finance manager approves it (four eyes). */
export class OverpaidCreditNote implements Cmd {
  constructor(readonly pa: number, readonly decision: "issued" | "rejected" = "issued") {}
  private pick(m: Model) {
    const c = m.pas.filter((p) => p.status === "overpaid" && p.receipts.some((x) => !x.voided));
    return c.length ? c[this.pa % c.length] : undefined;
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const pa = this.pick(m)!;
    const excess = pa.received - pa.total;
    const receipt = pa.receipts.filter((x) => !x.voided).at(-1)!;
    const made = await r.sim.call("finance_staff", "POST", "/credit-notes", { type: "overpaid", receiptId: receipt.id }, randomUUID());
    expectStatus(made, [201, 409], "overpaid credit note");
    if (made.statusCode === 201) {
      const id = made.json().data.id as string;
      // the cash overpaid, or the cent below where no net amount's total with GST is exactly it (overpaidNetOfGst)
      const expected = creditNoteTotals({ overpaidAmount: overpaidNetOfGst(excess, SIM_GST) }, SIM_GST).total;
      if (cents(made.json().data.summary.total) !== expected) fail(`overpaid credit note of ${made.json().data.summary.total} for ${money(excess)} overpaid (expected ${money(expected)})`);
      const cn: CnState = { id, student: pa.student, status: "awaiting_finance_approval", total: expected, used: 0, overpaid: true };
      m.cns.push(cn);
      const current = (await r.sim.call("finance_manager", "GET", `/credit-notes/${id}`)).json().data;
      const approved = await r.sim.call("finance_manager", "PATCH", `/credit-notes/change-status-credit-note/${id}`, { status: this.decision, updatedAt: current.updatedAt }, randomUUID());
      expectStatus(approved, [200], `overpaid credit note ${this.decision}`);
    }
    r.sim.count(`overpaid credit note ${this.decision}`, made);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `OverpaidCreditNote(pa ${this.pa}, ${this.decision})`;
  }
}

/**
 * Front desk suspends the student for two lessons ahead → finance staff fills the fees from a receipt of a paid PA
 * → the finance manager approves. The cap may refuse the approval (400): then nothing is issued.
 */
export class SuspensionCreditNote implements Cmd {
  /** `filler` fills the fees; when that is the finance manager, their own approval is refused (403, four eyes) and the credit note waits. */
  constructor(readonly student: number, readonly lessons: 1 | 2, readonly filler: "finance_staff" | "finance_manager" = "finance_staff", readonly decision: "issued" | "rejected" = "issued") {}
  private pick(m: Model) {
    const i = this.student % m.students.length;
    const st = m.students[i]!;
    if (st.withdrawn || st.suspended) return undefined;
    const pa = m.pas.find((p) => p.student === i && (p.status === "paid" || p.status === "overpaid") && p.receipts.some((x) => !x.voided));
    return pa ? { i, pa } : undefined;
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const { i, pa } = this.pick(m)!;
    const s = r.students[i]!;
    const created = await r.sim.call("front_desk", "POST", "/credit-notes", { type: "suspension", studentId: s.studentId, classId: s.classId, startDate: s.lessons[1], endDate: s.lessons[1 + this.lessons - 1], reason: "Simulation: overseas" }, randomUUID());
    expectStatus(created, [201], "suspension");
    m.students[i]!.suspended = true;
    const id = created.json().data.creditNoteId as string;
    m.cns.push({ id, student: i, status: "awaiting_front_desk_action", total: 0, used: 0, pa: pa.id });
    const fresh = async () => (await r.sim.call("finance_manager", "GET", `/credit-notes/${id}`)).json().data;
    const move = async (role: Role, status: string) => r.sim.call(role, "PATCH", `/credit-notes/change-status-credit-note/${id}`, { status, updatedAt: (await fresh()).updatedAt }, randomUUID());
    expectStatus(await move("front_desk", "awaiting_finance_action"), [200], "suspension to finance");
    const receipt = pa.receipts.find((x) => !x.voided)!;
    const prefilled = await fresh();
    const filled = await r.sim.call(this.filler, "PUT", `/credit-notes/${id}`, { updatedAt: prefilled.updatedAt, numberOfLesson: this.lessons, receiptId: receipt.id, reason: "Simulation: overseas" }, randomUUID());
    expectStatus(filled, [200, 400], "credit note fees");
    let approved: Answer | undefined;
    if (filled.statusCode === 200) {
      expectStatus(await move(this.filler, "awaiting_finance_approval"), [200], "credit note to approval");
      // four eyes (docs/DECISIONS.md): whoever changed the fee block at the finance step does not approve it;
      // confirming the fees the suspension prefilled is not filling them
      const own = this.filler === "finance_manager" && JSON.stringify(prefilled.creditNoteFee) !== JSON.stringify((await fresh()).creditNoteFee);
      approved = await r.sim.call("finance_manager", "PATCH", `/credit-notes/change-status-credit-note/${id}`, { status: this.decision, updatedAt: (await fresh()).updatedAt }, randomUUID(), own);
      expectStatus(approved, own && this.decision === "issued" ? [403] : this.decision === "issued" ? [200, 400, 409] : [200], `${this.decision} suspension credit note`);
      if (approved.statusCode === 200 && this.decision === "issued") {
        const total = cents(approved.json().data.summary.total);
        if (total <= 0 || total > pa.received) fail(`suspension credit note of ${money(total)} from a PA with ${money(pa.received)} received`);
      }
    }
    r.sim.count(`suspension credit note ${this.decision}`, filled, approved);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `SuspensionCreditNote(student ${this.student}, ${this.lessons} lesson${this.lessons > 1 ? "s" : ""}, filled by ${this.filler}, ${this.decision})`;
  }
}

/**
 * Front desk withdraws the student after the first lesson ahead, puts the student's unused issued credit notes and
 * paid deposits in the refund (`includeCredit`) → sales records feedback and passes it on → finance records the
 * payee: the refund waits for the finance manager's approval. Answers its id and `move` (a status change).
 */
export async function refundAwaitingApproval(m: Model, r: Real, i: number, includeCredit: boolean) {
  const s = r.students[i]!;
  const created = await r.sim.call("front_desk", "POST", "/refund", { type: "withdrawal", studentId: s.studentId, classId: s.classId, noticeDate: todayInSingapore(), lastLessonDate: s.lessons[0], reason: "Simulation: moving" }, randomUUID());
  expectStatus(created, [201], "withdrawal");
  m.students[i]!.withdrawn = true;
  const id = created.json().data.refundId as string;
  const fresh = async () => (await r.sim.call("finance_manager", "GET", `/refund/${id}`)).json().data;
  const patch = async (role: Role, body: Record<string, unknown>) => r.sim.call(role, "PATCH", `/refund/${id}`, { updatedAt: (await fresh()).updatedAt, ...body }, randomUUID());
  const move = async (role: Role, status: string) =>
    r.sim.call(role, "PATCH", `/refund/${id}/change-refund-status`, { status, updatedAt: (await fresh()).updatedAt, ...(status.startsWith("rejected") ? { reasonReject: "Simulation: stays" } : {}) }, randomUUID());
  let included: Answer | undefined;
  const creditNoteIds = includeCredit ? m.cns.filter((c) => c.student === i && c.status === "issued" && c.used === 0).map((c) => c.id) : [];
  const depositIds = includeCredit ? await paidDeposits(r, i) : [];
  if (includeCredit) {
    included = await patch("front_desk", { creditNoteIds, depositIds });
    expectStatus(included, [200, 400], "refund credit notes and deposits");
  }
  expectStatus(await move("front_desk", "awaiting_sale_action"), [200], "refund to sales");
  expectStatus(await patch("sales", { studentFeedback: { feedback: "Simulation" }, rating: "good" }), [200], "sales feedback");
  return { id, fresh, patch, move, included, creditNoteIds: included?.statusCode === 200 ? creditNoteIds : [], depositIds: included?.statusCode === 200 ? depositIds : [] };
}

/**
 * A withdrawal refund to its end: sales passes it on or rejects it; the finance manager approves (refunded) or
 * rejects. The cap may refuse the approval (400/409): then nothing is paid out.
 */
export class WithdrawalRefund implements Cmd {
  constructor(readonly student: number, readonly includeCredit: boolean, readonly end: "refunded" | "rejected_by_sale" | "rejected_by_finance" = "refunded") {}
  check(m: Model) {
    // a withdrawal of a student the sequence never billed tests nothing of the money
    const i = this.student % m.students.length;
    return !m.students[i]!.withdrawn && m.pas.some((p) => p.student === i && p.status !== "unpaid");
  }
  async run(m: Model, r: Real) {
    const i = this.student % m.students.length;
    const refund = await refundAwaitingApproval(m, r, i, this.includeCredit);
    let done: Answer;
    if (this.end === "rejected_by_sale") {
      done = await refund.move("sales", "rejected_by_sale");
      expectStatus(done, [200], "sales rejects the refund");
    } else {
      expectStatus(await refund.move("sales", "awaiting_finance_approval"), [200], "refund to finance");
      expectStatus(await refund.patch("finance_manager", { payeeDetails: { name: "Parent", bankName: "DBS", accountNo: "123" }, refundMethod: "interbank transfer" }), [200], "payee");
      done = await refund.move("finance_manager", this.end);
      expectStatus(done, this.end === "refunded" ? [200, 400, 409] : [200], `refund ${this.end}`);
    }
    r.sim.count(`withdrawal refund ${this.end}`, refund.included, done);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `WithdrawalRefund(student ${this.student}${this.includeCredit ? ", with credit notes and deposits" : ""}, ${this.end})`;
  }
}

/** The finance manager voids an issued credit note: allowed while nothing of it is used; refused (400/409) once used, for an overpaid one, and once the PA it credits was voided. */
export class VoidCreditNote implements Cmd {
  constructor(readonly cn: number) {}
  private pick(m: Model) {
    const c = m.cns.filter((x) => x.status === "issued");
    return c.length ? c[this.cn % c.length] : undefined;
  }
  check(m: Model) {
    return !!this.pick(m);
  }
  async run(m: Model, r: Real) {
    const cn = this.pick(m)!;
    const current = (await r.sim.call("finance_manager", "GET", `/credit-notes/${cn.id}`)).json().data;
    const res = await r.sim.call("finance_manager", "PATCH", `/credit-notes/change-status-credit-note/${cn.id}`, { status: "voided", updatedAt: current.updatedAt }, randomUUID());
    const paVoided = m.pas.some((p) => p.id === cn.pa && p.status === "voided");
    expectStatus(res, cn.used > 0 || cn.overpaid || paVoided ? [400, 409] : [200], `void ${cn.overpaid ? "overpaid " : ""}credit note with ${money(cn.used)} used${paVoided ? ", its PA voided" : ""}`);
    await sync(m, r);
    if ((res.statusCode === 200) !== (cn.status === "voided")) fail(`void credit note answered ${res.statusCode} and left it ${cn.status}`);
    r.sim.count("void credit note", res);
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `VoidCreditNote(${this.cn})`;
  }
}

/** Ops manager marks the student present at the first lesson ahead (a delivered lesson: it is no longer refundable). */
export class DeliverLesson implements Cmd {
  constructor(readonly student: number) {}
  check(m: Model) {
    const st = m.students[this.student % m.students.length]!;
    return !st.withdrawn && !st.delivered;
  }
  async run(m: Model, r: Real) {
    const i = this.student % m.students.length;
    const s = r.students[i]!;
    const { rows } = await r.sim.server.db.query<{ id: string; lessonId: string }>(
      `select ls.id, ls."lessonId" from lessons_students ls join lessons l on l.id = ls."lessonId"
       where ls."studentId" = $1 and l."classId" = $2 and l.date = $3::date and ls.type = 'enrolled' and ls.status = 'not_attended'`,
      [s.studentId, s.classId, s.lessons[0]],
    );
    if (!rows[0]) fail(`the student has no lesson to attend on ${s.lessons[0]}`);
    const res = await r.sim.call("ops_manager", "PUT", `/classes/attendance/${rows[0].lessonId}`, { students: [{ id: rows[0].id, hasAttended: true }] });
    expectStatus(res, [200], "mark attended");
    m.students[i]!.delivered = true;
    r.sim.count("deliver a lesson");
    await afterCommand(m, r, this.toString());
  }
  toString() {
    return `DeliverLesson(student ${this.student})`;
  }
}
