import { ANY_CHANGE, type Db } from "../../db/types.ts";
import type { Session } from "../../auth/types.ts";
import { CHANGE_CHANNEL } from "../metadata/triggers.ts";
import { executeOperation, prepare, type ExecutionContext, type GraphQLRequest } from "../execute/run.ts";
import { errorBody, RequestError } from "../errors.ts";

export type LiveListener = (responseText: string) => void;

interface Group {
  readonly key: string;
  readonly session: Session;
  readonly request: GraphQLRequest;
  readonly tables: ReadonlySet<string>;
  readonly listeners: Set<LiveListener>;
  last?: string;
  lastRun: number;
  dirty: boolean;
  running: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Live queries: a group per (permission set, session variables, query, variables); a change NOTIFY on a table
 * the query reads marks the group dirty; it refetches at most once per interval, once for all its subscribers,
 * and sends only when the result changed.
 */
export class LiveQueries {
  private readonly groups = new Map<string, Group>();
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
      group = { key, session, request, tables: new Set(plan.tables), listeners: new Set(), lastRun: 0, dirty: true, running: false };
      this.groups.set(key, group);
      group.listeners.add(listener);
      this.schedule(group);
    } else {
      group.listeners.add(listener);
      if (group.last !== undefined) listener(group.last);
    }
    const g = group;
    return () => {
      g.listeners.delete(listener);
      if (!g.listeners.size) {
        if (g.timer) clearTimeout(g.timer);
        this.groups.delete(g.key);
      }
    };
  }

  /** Metadata changed: refetch everything (permissions may differ). */
  reset(): void {
    for (const g of this.groups.values()) {
      g.dirty = true;
      this.schedule(g);
    }
  }

  get size(): number {
    return this.groups.size;
  }

  private changed(table: string): void {
    for (const g of this.groups.values()) {
      if (g.tables.has(table) || table === ANY_CHANGE) {
        g.dirty = true;
        this.schedule(g);
      }
    }
  }

  private schedule(g: Group): void {
    if (this.closed || g.timer || g.running) return;
    const wait = Math.max(0, g.lastRun + this.intervalMs - Date.now());
    g.timer = setTimeout(() => {
      g.timer = undefined;
      void this.run(g);
    }, wait);
  }

  private async run(g: Group): Promise<void> {
    if (!this.groups.has(g.key) || !g.dirty) return;
    g.dirty = false;
    g.running = true;
    g.lastRun = Date.now();
    let text: string;
    try {
      text = await executeOperation(this.contextFor(g.session), g.request);
    } catch (e) {
      text = JSON.stringify(errorBody([e instanceof RequestError ? e : new RequestError("unexpected", "live query failed")], g.session.isAdmin));
    }
    g.running = false;
    if (text !== g.last) {
      g.last = text;
      for (const l of g.listeners) l(text);
    }
    if (g.dirty) this.schedule(g);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const g of this.groups.values()) if (g.timer) clearTimeout(g.timer);
    this.groups.clear();
    await this.unlisten?.().catch(() => undefined);
  }
}
