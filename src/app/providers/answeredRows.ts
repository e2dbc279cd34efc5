/**
 * What the data provider last answered per read (list, one record, many records), so the live provider can tell
 * whether a subscription's first answer only repeats it. A live query answers with the current rows as soon as it
 * starts; Refine takes every answer as a change and refetches the resource, so each freshly opened page read its
 * rows twice (issue 37). The same read is named the same way from the data provider's and the live provider's
 * parameters: kind, resource, selection, and the list's page, sort and filters or the record ids.
 */
import type { CrudFilter, CrudSort, MetaQuery, Pagination } from "@refinedev/core";

export type ReadKind = "list" | "one" | "many";

export interface ReadParams {
  resource?: string;
  meta?: MetaQuery;
  pagination?: Pagination;
  sorters?: CrudSort[];
  filters?: CrudFilter[];
  id?: unknown;
  ids?: readonly unknown[];
}

/** Reads remembered at most; older ones are forgotten first (a first answer without its read is passed on). */
const KEPT = 100;

/** A query document by identity (pages pass the same parsed document to the list read and its subscription). */
const documentIds = new WeakMap<object, number>();
let documents = 0;
function documentId(doc: object): number {
  if (!documentIds.has(doc)) documentIds.set(doc, ++documents);
  return documentIds.get(doc)!;
}

export function readKey(kind: ReadKind, p: ReadParams): string {
  const meta = p.meta ?? {};
  const selection = meta.gqlQuery ? documentId(meta.gqlQuery as object) : meta.fields;
  const which =
    kind === "list"
      ? [p.pagination?.currentPage ?? 1, p.pagination?.pageSize ?? 10, p.pagination?.mode ?? "server", p.sorters ?? [], p.filters ?? []]
      : kind === "one"
        ? p.id
        : p.ids;
  return JSON.stringify([kind, p.resource, meta.operation, selection, meta.gqlVariables, meta.variables, which]);
}

export class AnsweredRows {
  private readonly reads = new Map<string, Promise<unknown>>();

  /** The data provider's answer to a read (its `data`), remembered once it arrives; a failed read is forgotten. */
  record(key: string, answer: Promise<unknown>): void {
    this.reads.delete(key);
    this.reads.set(key, answer);
    if (this.reads.size > KEPT) this.reads.delete(this.reads.keys().next().value!);
    answer.catch(() => this.reads.get(key) === answer && this.reads.delete(key));
  }

  /** Whether `rows` equal the last answer to the same read (waiting for it when it is still on its way). */
  async repeats(key: string, rows: unknown): Promise<boolean> {
    const answer = this.reads.get(key);
    if (!answer) return false;
    const last = await answer.catch(() => undefined);
    return last !== undefined && JSON.stringify(last) === JSON.stringify(rows);
  }
}
