/**
 * The audit trail's calls (issue 36): `GET /history/:table/:id` (a record's History drawer, for every staff role)
 * and `GET /audit-log` (admins; `format=csv` writes the screen's CSV export, one large page, in words) with `GET /audit-log/tables`, the
 * tables its table filter offers (admins). A record's history shows only what its reader may read: the
 * GraphQL engine answers, as the reader, whether the record is visible under their row filter and which of its
 * columns their role reads — the same permissions as the record's own screens.
 */
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import type { Engine } from "../graphql/index.ts";
import type { Session } from "../auth/types.ts";
import { auditedTables, auditLog, recordDeletion, recordHistory } from "../audit/history.ts";
import { day, uuid, validationError } from "./validation.ts";
import { AUDIT_CSV_HEADER, auditCsvCells } from "../../src/domain/auditHistory.ts";
import { CSV_BOM, csvLine } from "../../src/domain/csv.ts";
import { todayInSingapore } from "../../src/domain/dates.ts";

export const HISTORY_MESSAGES = { notFound: "Record not found." } as const;
const TABLE = /^[a-z][a-z0-9_]{0,62}$/;
/** The audit log screen's CSV export asks for up to this many rows at once. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

const pageNumber = z.coerce.number().int().min(1).max(100_000).default(1);
const paging = { page: pageNumber, pageSize: z.coerce.number().int().min(1).max(100).default(10) };
const historyParams = z.object({ table: z.string().regex(TABLE, HISTORY_MESSAGES.notFound), id: z.string().min(1).max(100) });
const logQuery = z
  .object({
    userId: uuid("Unknown user.").optional(),
    table: z.string().regex(TABLE, "Unknown table.").optional(),
    record: z.string().max(100).optional(),
    from: day("Invalid start date.").optional(),
    to: day("Invalid end date.").optional(),
    page: pageNumber,
    pageSize: z.coerce.number().int().min(1).max(AUDIT_EXPORT_MAX_ROWS).default(10),
    format: z.enum(["json", "csv"], { error: "Unknown format." }).default("json"),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "The end date cannot be before the start date." });

type Answer<T> = { data?: T };

/**
 * The columns of the record's table the reader's role reads (none: not theirs to read), and of those the ones they
 * see on this record, or undefined when the record is not theirs to see (or gone). A role's columns can depend on the
 * row (a rule per row filter; the engine answers null for a column the row's rule withholds), so the engine is asked
 * for the record itself, as the reader: a column it answers null is left out (a column that is empty now loses its
 * history for non-admins rather than risk showing a withheld one).
 */
async function readableColumns(engine: Engine, session: Session, table: string, id: string): Promise<{ table: string[]; record?: string[] }> {
  const type = await engine.execute({ query: `{ type: __type(name: "${table}") { fields { name type { kind ofType { kind } } } } }` }, session);
  const fields = (type.body as Answer<{ type: { fields: { name: string; type: { kind: string; ofType: { kind: string } | null } }[] } | null }>).data?.type?.fields;
  const scalars = fields?.filter((f) => [f.type.kind, f.type.ofType?.kind].some((k) => k === "SCALAR" || k === "ENUM")).map((f) => f.name) ?? [];
  if (!scalars.length) return { table: [] };
  const { body } = await engine.execute({ query: `query($id: uuid!) { record: ${table}_by_pk(id: $id) { ${scalars.join(" ")} } }`, variables: { id } }, session);
  const record = (body as Answer<{ record: Record<string, unknown> | null }>).data?.record;
  return { table: scalars, record: record ? scalars.filter((c) => record[c] !== null && record[c] !== undefined) : undefined };
}

export const historyRoutes: FastifyPluginAsync<{ ctx: ServerContext; engine: Engine }> = async (app, { ctx, engine }) => {
  app.get("/history/:table/:id", async (request, reply) => {
    const params = historyParams.safeParse(request.params);
    const paged = z.object(paging).safeParse(request.query);
    if (!paged.success) return validationError(reply, paged.error);
    const { id } = params.data ?? { id: "" };
    const readable = params.success && uuid().safeParse(id).success ? await readableColumns(engine, request.session!, params.data.table, id) : { table: [] };
    // A deleted record (docs/DECISIONS.md "A deleted record's History"): whoever's role reads its table learns who
    // deleted it and when, with the entries' fields for admins only.
    const deletion = params.success && readable.table.length ? await recordDeletion(ctx.db, params.data.table, id) : null;
    const admin = request.session!.isAdmin || request.session!.roles.includes("admin");
    const columns = readable.record ? (request.session!.isAdmin ? undefined : readable.record) : admin ? undefined : [];
    if (!params.success || (!readable.record && !deletion)) return reply.code(404).send({ success: false, message: HISTORY_MESSAGES.notFound });
    const page = await recordHistory(ctx.db, params.data.table, id, columns, paged.data.page, paged.data.pageSize);
    return reply.send({ success: true, data: { ...page, deletion } });
  });

  app.get("/audit-log", async (request, reply) => {
    const q = logQuery.safeParse(request.query);
    if (!q.success) return validationError(reply, q.error);
    const { page, pageSize, record, format, ...filters } = q.data;
    const data = await auditLog(ctx.db, { ...filters, rowId: record }, page, pageSize);
    if (format === "json") return reply.send({ success: true, data });
    const file = `audit-log-${todayInSingapore()}.csv`;
    reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${file}"`);
    return reply.send(CSV_BOM + [AUDIT_CSV_HEADER, ...data.items.map(auditCsvCells)].map(csvLine).join(""));
  });

  app.get("/audit-log/tables", async (_request, reply) => reply.send({ success: true, data: await auditedTables(ctx.db) }));
};
