/**
 * Gap-free document numbers (FINANCE.md §2): the counter row of (company, year, type) is incremented in
 * the issuing transaction. The row lock serialises concurrent issuers; a rollback undoes the increment,
 * so no number is consumed by a document that was not issued.
 */
import type { Queryable } from "../db/index.ts";
import { formatDocumentNumber, type DocumentType } from "../../src/domain/finance/documentNumber.ts";
import { FinanceError } from "./transaction.ts";

const NO_SHORT_NAME = "The company has no short name to number its documents.";

export async function nextDocumentNumber(tx: Queryable, type: DocumentType, companyId: string, year: number): Promise<string> {
  return (await nextDocumentNumbers(tx, companyId, year, [[type, 1]]))[0]![0]!;
}

/**
 * Several numbers in one statement (a PA and the deposits it collects): for each [type, count] asked, `count`
 * consecutive numbers of that type's counter, in the order asked. The counters are locked in the order asked (a PA's
 * before its deposits', as issuing one by one does), so two issuers never wait for each other in a circle.
 */
export async function nextDocumentNumbers(tx: Queryable, companyId: string, year: number, wanted: ReadonlyArray<readonly [DocumentType, number]>): Promise<string[][]> {
  const asked = wanted.filter(([, n]) => n > 0);
  if (!asked.length) return wanted.map(() => []);
  const { rows } = await tx.query<{ documentType: DocumentType; lastNumber: number; shortName: string | null }>(
    `with up as (
       insert into document_counters ("companyId", year, "documentType", "lastNumber")
       select $1, $2, t, n from unnest($3::text[], $4::int[]) with ordinality as x(t, n, i) order by i
       on conflict ("companyId", year, "documentType") do update set "lastNumber" = document_counters."lastNumber" + excluded."lastNumber"
       returning "documentType", "lastNumber")
     select up.*, (select "shortName" from companies where id = $1) as "shortName" from up`,
    [companyId, year, asked.map(([t]) => t), asked.map(([, n]) => n)],
  );
  const shortName = rows[0]?.shortName;
  // the increment is undone with the transaction this refusal rolls back
  if (!shortName) throw new FinanceError(400, NO_SHORT_NAME, { companyId: NO_SHORT_NAME });
  const last = new Map(rows.map((r) => [r.documentType, Number(r.lastNumber)]));
  return wanted.map(([type, n]) => Array.from({ length: Math.max(0, n) }, (_, i) => formatDocumentNumber(type, shortName, year, last.get(type)! - n + 1 + i)));
}
