/**
 * One GraphQL request for hand-written screens whose queries do not fit Refine's list/one hooks (nested
 * selections with their own filters, several roots at once). Same client as the data provider: the access
 * token, one refresh on a 401. A refusal rejects with graphql-request's error (its `response.errors`).
 */
import { createGraphQLClient } from "./providers/data.ts";

export async function gqlRequest<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return createGraphQLClient().request<T>(query, variables);
}

/** A text typed by a user as an `_ilike` pattern matching it anywhere, its own % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
