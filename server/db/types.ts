/** The one interface every server module uses to reach PostgreSQL, embedded or real. */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * The same text runs again and again (a cached GraphQL plan, the session check): on PostgreSQL it becomes a
   * prepared statement of each connection, parsed and planned once instead of on every run. Only for statements
   * whose result columns never change with the schema (they return JSON or fixed columns).
   */
  readonly reuse?: boolean;
  /**
   * A shorter statement timeout for this statement alone (issue 32: staff reads), in ms. For Db.query (a
   * statement on its own); inside a transaction it is not promised.
   */
  readonly timeoutMs?: number;
}

export interface Queryable {
  /** One parameterised statement ($1, $2 …). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, run_sql). */
  exec(sql: string): Promise<void>;
}

export type DbKind = "pglite" | "postgres";

/** The payload a listener gets after its connection was lost and made again (see Db.listen). */
export const ANY_CHANGE = "*";

export interface Db extends Queryable {
  readonly kind: DbKind;
  /** Runs fn in one transaction that owns its connection until it ends; rolls back on throw. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * LISTEN on a channel; returns the unlisten function. When a lost listening connection is made again,
   * every handler gets `ANY_CHANGE`: notifications may have been missed meanwhile.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** The embedded database's queue for its one connection (issue 32: /readyz); PostgreSQL has a pool instead. */
  queueState?(): { readonly waiting: number; readonly oldestWaitMs: number };
  close(): Promise<void>;
}
