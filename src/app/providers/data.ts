/**
 * Data provider: @refinedev/hasura over graphql-request. Every request carries the access token (401 →
 * refresh once and retry, see api.ts). GraphQL errors become toasts; network errors are only logged.
 */
import type { DataProvider, HttpError } from "@refinedev/core";
import hasuraDataProvider, { GraphQLClient } from "@refinedev/hasura";
import { authorizedFetch } from "../api.ts";
import { graphqlUrl } from "../config.ts";
import { graphqlErrorsOf, isNetworkError, logNetworkError, toastGraphQLErrors } from "../errors.ts";

export function createGraphQLClient(): GraphQLClient {
  return new GraphQLClient(graphqlUrl(), { fetch: authorizedFetch });
}

/** Maps a failure to Refine's HttpError after reporting it the spec's way. */
export function reportDataError(err: unknown): HttpError {
  const errors = graphqlErrorsOf(err);
  if (errors) {
    toastGraphQLErrors(errors);
    const status = (err as { response?: { status?: number } }).response?.status ?? 200;
    return { message: errors.map((e) => e.message).join(" "), statusCode: status === 200 ? 400 : status, errors } as unknown as HttpError;
  }
  if (isNetworkError(err)) {
    logNetworkError(err);
    return { message: (err as Error).message, statusCode: 0 } as unknown as HttpError;
  }
  return { message: (err as Error)?.message ?? String(err), statusCode: 500 } as unknown as HttpError;
}

export function createDataProvider(client: GraphQLClient = createGraphQLClient()): Required<DataProvider> {
  const base = hasuraDataProvider(client, { idType: "uuid", namingConvention: "hasura-default" });
  const wrapped = { ...base } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(base)) {
    if (typeof fn !== "function" || name === "getApiUrl") continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (err) {
        throw reportDataError(err);
      }
    };
  }
  wrapped.getApiUrl = () => graphqlUrl();
  return wrapped as Required<DataProvider>;
}
