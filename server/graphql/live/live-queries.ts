import { ANY_CHANGE, type Db } from "../../db/types.ts";
import type { Session } from "../../auth/types.ts";
import { CHANGE_CHANNEL } from "../metadata/triggers.ts";
import { executeOperation, prepare, selectsStatement, type ExecutionContext, type GraphQLRequest, type SelectsStatement } from "../execute/run.ts";
import { errorBody, RequestError } from "../errors.ts";
import { multiplexedSql, parameterTypes, runMultiplexed, subscribersParam } from "./multiplex.ts";

export type LiveListener = (responseText: string) => void;

/** Subscribers with the same permission set, session values, query and variables: one answer for all of them. */
interface Group {
  readonly key: string;
  readonly session: Session;
  readonly request: GraphQLRequest;
  readonly listeners: Set<LiveListener>;
  tables: ReadonlySet<string>;
  /** Its selects as one statement; undefined when it must run on its own (introspection, a compile error to report). */
  shape?: SelectsStatement;
  cohort?: Cohort;
  last?: string;
  /** Not answered yet since it joined (or its shape changed): run at the cohort's next turn without waiting. */
  fresh: boolean;
}

/** The groups of one query shape (same statement text, parameters aside): refetched together, in one statement per batch. */
interface Cohort {
  readonly key: string;
  readonly sql?: string;
  readonly groups: Set<Group>;
  dirty: boolean;
  lastRun: number;
  running: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Subscribers per multiplexed statement: one statement instead of hundreds, small enough that the server sends one
 * batch's answers while the database computes the next (measured: 250 gave a lower p99 than 500 at 5,000 subscribers).
 */
export const LIVE_BATCH = 250;
/** Batches of one cohort run at once (the database's cores; more only queue in the pool). */
const PARALLEL_BATCHES = 2;

/**
 * Live queries: a group per (permission set, session variables, query, variables), groups of one statement shape in a
 * cohort. A change NOTIFY on a table the query reads marks its cohorts dirty; a cohort refetches at most once per
 * interval, all its groups in one multiplexed statement per LIVE_BATCH (multiplex.ts), and a group sends only when
 * its result changed.
 */
export class LiveQueries {
  private readonly groups = new Map<string, Group>();
  private readonly cohorts = new Map<string, Cohort>();
  private unlisten?: () => Promise<void>;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly contextFor: (session: Session) => ExecutionContext,
    private readonly intervalMs = 1000,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(CHANGE_CHANNEL, (payload) => this.changed(payload));
  }

  /** Starts (or joins) a live query. Throws RequestError when the request is invalid. Returns the stop function. */
  subscribe(session: Session, request: GraphQLRequest, listener: LiveListener): () => void {
    const ctx = this.contextFor(session);
    const { plan } = prepare(ctx, request);
    if (plan.operation !== "subscription") throw new RequestError("validation-failed", "only subscriptions can be live");
    const key = JSON.stringify([ctx.access.key, ctx.session, request.query, request.variables ?? {}, request.operationName ?? null]);
    let group = this.groups.get(key);
    if (!group) {
      group = { key, session, request, tables: new Set(plan.tables), listeners: new Set([listener]), fresh: true };
      this.groups.set(key, group);
      this.place(group, ctx);
    } else {
      group.listeners.add(listener);
      if (group.last !== undefined) listener(group.last);
    }
    const g = group;
    return () => {
      g.listeners.delete(listener);
      if (!g.listeners.size && this.groups.get(g.key) === g) {
        this.groups.delete(g.key);
        this.leave(g);
      }
    };
  }

  /** Metadata changed: every group's statement is compiled again (permissions may differ) and refetched. */
  reset(): void {
    for (const g of this.groups.values()) {
      this.leave(g);
      g.fresh = true;
      let ctx: ExecutionContext | undefined;
      try {
        ctx = this.contextFor(g.session);
        g.tables = new Set(prepare(ctx, g.request).plan.tables);
      } catch {
        // the run reports it to the subscriber
      }
      this.place(g, ctx);
    }
  }

  /** Groups (distinct subscriptions) open. */
  get size(): number {
    return this.groups.size;
  }

  /** Puts a group in the cohort of its statement's shape and schedules its first answer. */
  private place(g: Group, ctx: ExecutionContext | undefined): void {
    try {
      g.shape = ctx ? selectsStatement(ctx, g.request) : undefined;
    } catch {
      g.shape = undefined; // e.g. a missing session variable: executeOperation says so when it runs alone
    }
    const key = g.shape ? JSON.stringify([ctx!.access.key, g.shape.stmt.sql]) : `alone:${g.key}`;
    let cohort = this.cohorts.get(key);
    if (!cohort) this.cohorts.set(key, (cohort = { key, sql: g.shape?.stmt.sql, groups: new Set(), dirty: false, lastRun: 0, running: false }));
    cohort.groups.add(g);
    g.cohort = cohort;
    this.schedule(cohort);
  }

  private leave(g: Group): void {
    const c = g.cohort;
    if (!c) return;
    c.groups.delete(g);
    g.cohort = undefined;
    if (!c.groups.size) {
      if (c.timer) clearTimeout(c.timer);
      if (this.cohorts.get(c.key) === c) this.cohorts.delete(c.key);
    }
  }

  private changed(table: string): void {
    for (const c of this.cohorts.values()) {
      const first = c.groups.values().next().value;
      if (table === ANY_CHANGE || (first && first.tables.has(table))) {
        c.dirty = true;
        this.schedule(c);
      }
    }
  }

  private schedule(c: Cohort): void {
    if (this.closed || c.timer || c.running) return;
    const fresh = [...c.groups].some((g) => g.fresh);
    if (!c.dirty && !fresh) return;
    const wait = c.dirty ? Math.max(0, c.lastRun + this.intervalMs - Date.now()) : 0;
    c.timer = setTimeout(() => {
      c.timer = undefined;
      void this.run(c);
    }, wait);
  }

  private async run(c: Cohort): Promise<void> {
    if (this.cohorts.get(c.key) !== c) return;
    const all = c.dirty;
    const groups = [...c.groups].filter((g) => all || g.fresh);
    if (all) c.lastRun = Date.now();
    c.dirty = false;
    for (const g of groups) g.fresh = false;
    c.running = true;
    try {
      if (c.sql) await this.runMultiplexed(c.sql, groups);
      else await Promise.all(groups.map((g) => this.runAlone(g)));
    } finally {
      c.running = false;
    }
    this.schedule(c);
  }

  private async runMultiplexed(sql: string, groups: Group[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < groups.length) {
        const batch = groups.slice(next, (next += LIVE_BATCH));
        await this.runBatch(sql, batch);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_BATCHES }, worker));
  }

  private async runBatch(sql: string, batch: Group[]): Promise<void> {
    let rows: Record<string, string | null>[];
    try {
      const types = await parameterTypes(this.db, sql);
      rows = await runMultiplexed(this.db, multiplexedSql(sql, types), subscribersParam(batch.map((g) => g.shape!.stmt.params)));
    } catch {
      // one subscriber's values may fail the statement for all (a bad cast): each runs alone and gets its own answer
      await Promise.all(batch.map((g) => this.runAlone(g)));
      return;
    }
    for (const row of rows) {
      const g = batch[Number(row._i) - 1];
      if (!g) continue;
      let text: string;
      try {
        text = g.shape!.respond(row);
      } catch (e) {
        text = this.errorText(e, g);
      }
      this.deliver(g, text);
    }
  }

  private async runAlone(g: Group): Promise<void> {
    let text: string;
    try {
      text = await executeOperation(this.contextFor(g.session), g.request);
    } catch (e) {
      text = this.errorText(e, g);
    }
    this.deliver(g, text);
  }

  private errorText(e: unknown, g: Group): string {
    return JSON.stringify(errorBody([e instanceof RequestError ? e : new RequestError("unexpected", "live query failed")], g.session.isAdmin));
  }

  /** Sends a group's answer to its subscribers when it differs from the last one sent. */
  private deliver(g: Group, text: string): void {
    if (this.groups.get(g.key) !== g || text === g.last) return;
    g.last = text;
    for (const l of g.listeners) l(text);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.cohorts.values()) if (c.timer) clearTimeout(c.timer);
    this.cohorts.clear();
    this.groups.clear();
    await this.unlisten?.().catch(() => undefined);
  }
}
