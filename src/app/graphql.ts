/**
 * The GraphQL transport of the browser app: graphql-request's client on /v1/graphql with `authorizedFetch` as its
 * fetch (the access token, one refresh on a 401; see api.ts). Used by the data provider and by hand-written screens
 * whose queries do not fit Refine's list/one hooks (`gqlRequest`). A refusal rejects with graphql-request's
 * `ClientError`, whose `response` carries the server's `errors` and the HTTP `status` (what errors.ts
 * `graphqlErrorsOf` reads); a request that never got an answer rejects with fetch's own TypeError.
 */
import type { DocumentNode } from "graphql";
import { GraphQLClient } from "graphql-request";
import { authorizedFetch } from "./api.ts";
import { graphqlUrl } from "./config.ts";

/** A client of the GraphQL endpoint (`url` defaults to the app's /v1/graphql) sending the signed-in user's token. */
export function createGraphQLClient(url: string = graphqlUrl()): GraphQLClient {
  return new GraphQLClient(url, { fetch: authorizedFetch });
}

/** One GraphQL request with the signed-in user's token. */
export async function gqlRequest<T>(query: string | DocumentNode, variables: Record<string, unknown> = {}): Promise<T> {
  return createGraphQLClient().request<T>(query, variables);
}

/** A text typed by a user as an `_ilike` pattern matching it anywhere, its own % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
