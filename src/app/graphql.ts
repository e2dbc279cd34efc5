/**
 * The GraphQL transport of the browser app: a POST of `{ query, variables, operationName }` to /v1/graphql through
 * `authorizedFetch` (the access token, one refresh on a 401). Used by the data provider and by hand-written screens
 * whose queries do not fit Refine's list/one hooks (`gqlRequest`). A refusal rejects with a `GraphQLRequestError`
 * whose `response` carries the server's `errors` and the HTTP `status` (what errors.ts `graphqlErrorsOf` reads);
 * a request that never got an answer rejects with fetch's own TypeError.
 */
import type { DocumentNode, OperationDefinitionNode } from "graphql";
import { authorizedFetch } from "./api.ts";
import { graphqlUrl } from "./config.ts";

/** A document as text, or as parsed by graphql's `parse` (a page's own query). */
export type GraphQLDocument = string | DocumentNode;

export interface GraphQLResponse {
  data?: Record<string, unknown> | null;
  errors?: { message?: string; extensions?: Record<string, unknown> }[];
  /** The body of an answer that was not JSON. */
  error?: string;
  status: number;
  headers: Headers;
}

/** A request the server refused (GraphQL errors, an HTTP error, or an answer without data). */
export class GraphQLRequestError extends Error {
  constructor(
    readonly response: GraphQLResponse,
    readonly request: { query: string; variables?: Record<string, unknown> },
  ) {
    super(`${response.errors?.[0]?.message ?? `GraphQL Error (Code: ${response.status})`}: ${JSON.stringify({ response, request })}`);
    this.name = "GraphQLRequestError";
  }
}

export interface GraphQLClient {
  request<T = Record<string, unknown>>(document: GraphQLDocument, variables?: Record<string, unknown>): Promise<T>;
}

/**
 * The text and operation name of a document. Text goes as it is (a document of one operation needs no name: the
 * server runs its only operation); a parsed document is printed and named. The printer is loaded only then, so
 * graphql stays out of pages whose queries are text (every generated list and form).
 */
async function requestDocument(document: GraphQLDocument): Promise<{ query: string; operationName?: string }> {
  if (typeof document === "string") return { query: document };
  const { print } = await import("./graphqlText.ts");
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  return { query: print(document), operationName: operations.length === 1 ? operations[0]!.name?.value : undefined };
}

async function responseBody(res: Response): Promise<unknown> {
  const type = (res.headers.get("content-type") ?? "").toLowerCase();
  const text = await res.text();
  return /^application\/(graphql-response\+|graphql\+)?json/.test(type) ? JSON.parse(text) : text;
}

/**
 * A client of the GraphQL endpoint. `url` defaults to the app's /v1/graphql (read at each request); `fetchImpl`
 * to `authorizedFetch`. `headers` are added to every request (a custom call to another endpoint).
 */
export function createGraphQLClient(url?: string, fetchImpl: typeof fetch = authorizedFetch, headers: Record<string, string> = {}): GraphQLClient {
  return {
    async request<T>(document: GraphQLDocument, variables?: Record<string, unknown>): Promise<T> {
      const { query, operationName } = await requestDocument(document);
      const res = await fetchImpl(url ?? graphqlUrl(), {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ query, variables, operationName }),
      });
      const body = await responseBody(res);
      const result = (typeof body === "string" ? { error: body } : body) as Omit<GraphQLResponse, "status" | "headers">;
      const refused = Array.isArray(result.errors) && result.errors.length > 0;
      if (res.ok && !refused && result.data) return result.data as T;
      throw new GraphQLRequestError({ ...result, status: res.status, headers: res.headers }, { query, variables });
    },
  };
}

/** One GraphQL request with the signed-in user's token. */
export async function gqlRequest<T>(query: GraphQLDocument, variables: Record<string, unknown> = {}): Promise<T> {
  return createGraphQLClient().request<T>(query, variables);
}

/** A text typed by a user as an `_ilike` pattern matching it anywhere, its own % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
