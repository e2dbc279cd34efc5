/**
 * Gap-free document numbers (FINANCE.md §2): the counter row of (company, year, type) is incremented in
 * the issuing transaction. The row lock serialises concurrent issuers; a rollback undoes the increment,
 * so no number is consumed by a document that was not issued.
 */
import type { Queryable } from "../db/index.ts";
import { formatDocumentNumber, type DocumentType } from "../../src/domain/finance/documentNumber.ts";
import { FinanceError } from "./transaction.ts";

export async function nextDocumentNumber(tx: Queryable, type: DocumentType, companyId: string, year: number): Promise<string> {
  const { rows: company } = await tx.query<{ shortName: string | null }>(`select "shortName" from companies where id = $1`, [companyId]);
  const shortName = company[0]?.shortName;
  if (!shortName) throw new FinanceError(400, "The company has no short name to number its documents.", { companyId: "The company has no short name to number its documents." });
  const { rows } = await tx.query<{ lastNumber: number }>(
    `insert into document_counters ("companyId", year, "documentType", "lastNumber") values ($1, $2, $3, 1)
     on conflict ("companyId", year, "documentType") do update set "lastNumber" = document_counters."lastNumber" + 1
     returning "lastNumber"`,
    [companyId, year, type],
  );
  return formatDocumentNumber(type, shortName, year, Number(rows[0]!.lastNumber));
}
