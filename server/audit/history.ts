/**
 * Reading the audit trail (issue 36): a record's history, and the admin's audit log with its filters. The rows live
 * in app_internal.audit_log, written only by the database's audit trigger.
 */
import type { Queryable } from "../db/types.ts";
import { auditChanges, type AuditChange, type AuditOp } from "../../src/domain/auditHistory.ts";
import { singaporeWallTimeToIso } from "../../src/domain/dates.ts";

export interface AuditEntry {
  readonly id: string;
  readonly at: string;
  readonly op: AuditOp;
  readonly tableName: string;
  readonly rowId: string;
  readonly userId: string | null;
  /** The acting user's name, or null for the system (seeds, the server's own jobs). */
  readonly userName: string | null;
  readonly role: string | null;
  readonly requestId: string | null;
  readonly changes: readonly AuditChange[];
}

export interface AuditPage {
  readonly total: number;
  readonly items: readonly AuditEntry[];
}

export interface AuditFilters {
  readonly userId?: string;
  readonly table?: string;
  readonly rowId?: string;
  /** Calendar days in Singapore, both included. */
  readonly from?: string | null;
  readonly to?: string | null;
}

interface Row {
  id: string;
  at: string;
  op: AuditOp;
  tableName: string;
  rowId: string;
  userId: string | null;
  userName: string | null;
  role: string | null;
  requestId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  total: number;
}

const SELECT = `select a.id::text, a."at", a.op, a."tableName", a."rowId", a."userId", a."role", a."requestId", a."before", a."after",
  coalesce(nullif(trim(concat_ws(' ', u."firstName", u."lastName")), ''), u.username) as "userName", count(*) over ()::int as total
  from app_internal.audit_log a left join users u on u.id = a."userId"`;

function entry(r: Row, columns?: ReadonlySet<string>): AuditEntry {
  const changes = auditChanges(r.before, r.after).filter((c) => !columns || columns.has(c.column));
  return { id: r.id, at: new Date(r.at).toISOString(), op: r.op, tableName: r.tableName, rowId: r.rowId, userId: r.userId, userName: r.userName, role: r.role, requestId: r.requestId, changes };
}

/**
 * One record's history, newest first. `columns` (undefined: all) are the ones the reader may read: entries that
 * changed none of them are left out, and the others show only those columns.
 */
export async function recordHistory(db: Queryable, table: string, rowId: string, columns: readonly string[] | undefined, page: number, pageSize: number): Promise<AuditPage> {
  const { rows } = await db.query<Row>(
    `${SELECT} where a."tableName" = $1 and a."rowId" = $2 and ($3::text[] is null or a.op <> 'update' or a."after" ?| $3::text[])
     order by a.id desc limit $4 offset $5`,
    [table, rowId, columns ? [...columns] : null, pageSize, (page - 1) * pageSize],
  );
  const visible = columns ? new Set(columns) : undefined;
  return { total: rows[0]?.total ?? (page > 1 ? await countHistory(db, table, rowId, columns) : 0), items: rows.map((r) => entry(r, visible)) };
}

/** Who deleted a record and when: the newest entry, when it is a delete or sets the status to deleted (a soft delete). */
export interface AuditDeletion {
  readonly at: string;
  readonly userName: string | null;
}

export async function recordDeletion(db: Queryable, table: string, rowId: string): Promise<AuditDeletion | null> {
  const { rows } = await db.query<{ at: string; userName: string | null }>(
    `select a."at", coalesce(nullif(trim(concat_ws(' ', u."firstName", u."lastName")), ''), u.username) as "userName"
     from (select * from app_internal.audit_log where "tableName" = $1 and "rowId" = $2 order by id desc limit 1) a left join users u on u.id = a."userId"
     where a.op = 'delete' or a."after"->>'status' = 'deleted'`,
    [table, rowId],
  );
  return rows[0] ? { at: new Date(rows[0].at).toISOString(), userName: rows[0].userName } : null;
}

async function countHistory(db: Queryable, table: string, rowId: string, columns: readonly string[] | undefined): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from app_internal.audit_log a where a."tableName" = $1 and a."rowId" = $2 and ($3::text[] is null or a.op <> 'update' or a."after" ?| $3::text[])`,
    [table, rowId, columns ? [...columns] : null],
  );
  return rows[0].n;
}

function where(f: AuditFilters): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts: string[] = [];
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value);
    parts.push(clause(`$${params.length}`));
  };
  if (f.userId) add((p) => `a."userId" = ${p}::uuid`, f.userId);
  if (f.table) add((p) => `a."tableName" = ${p}`, f.table);
  if (f.rowId) add((p) => `a."rowId" = ${p}`, f.rowId);
  if (f.from) add((p) => `a."at" >= ${p}::timestamptz`, singaporeWallTimeToIso(f.from));
  if (f.to) add((p) => `a."at" < ${p}::timestamptz + interval '1 day'`, singaporeWallTimeToIso(f.to));
  return { sql: parts.length ? `where ${parts.join(" and ")}` : "", params };
}

/** The audit log screen: every change matching the filters, newest first. */
export async function auditLog(db: Queryable, filters: AuditFilters, page: number, pageSize: number): Promise<AuditPage> {
  const w = where(filters);
  const { rows } = await db.query<Row>(`${SELECT} ${w.sql} order by a.id desc limit ${pageSize | 0} offset ${((page - 1) * pageSize) | 0}`, w.params);
  const total = rows[0]?.total ?? (page > 1 ? (await db.query<{ n: number }>(`select count(*)::int as n from app_internal.audit_log a ${w.sql}`, w.params)).rows[0].n : 0);
  return { total, items: rows.map((r) => entry(r)) };
}

/** The tables the audit trail covers (those carrying its trigger), for the audit log's table filter. */
export async function auditedTables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'audit_row' and not t.tgisinternal order by 1`,
  );
  return rows.map((r) => r.name);
}
