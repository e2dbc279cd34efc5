/**
 * Data provider: @refinedev/hasura's (idType uuid, Hasura's default naming) over graphql-request's client with the
 * access token (graphql.ts: 401 → refresh once and retry, see api.ts). What the product adds: GraphQL errors
 * become toasts, network errors are only logged, a resource's `restWrites` save through its REST call, and a capped
 * list's count past its cap comes with the engine's estimate (`countEstimate`).
 */
import type { BaseRecord, DataProvider, GetListParams, GetListResponse, HttpError, MetaQuery } from "@refinedev/core";
import dataProvider from "@refinedev/hasura";
import type { GraphQLClient } from "graphql-request";
import type { RestWrites } from "../../framework/types.ts";
import { api, rejectionMessage } from "../api.ts";
import { graphqlUrl } from "../config.ts";
import { toast } from "../../framework/toast.ts";
import { graphqlErrorsOf, isNetworkError, logNetworkError, toastGraphQLErrors } from "../errors.ts";
import { createGraphQLClient } from "../graphql.ts";
import { isCappedTotal } from "../../framework/pages/recordCounter.ts";
import { readKey, type AnsweredRows, type ReadKind } from "./answeredRows.ts";

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

/**
 * A save through the spec's REST call (a resource's `restWrites`): the server's field messages become the
 * form's field errors, its message the toast.
 */
async function restWrite(method: "POST" | "PUT", path: string, variables: unknown): Promise<{ data: BaseRecord }> {
  try {
    const reply = await api<BaseRecord>(method, path, variables);
    return { data: reply.data as never };
  } catch (err) {
    const r = err as { statusCode?: number; errors?: Record<string, string> };
    if (r.statusCode === undefined) throw reportDataError(err);
    const text = rejectionMessage(err, "The record could not be saved.");
    void toast.error({ content: text, key: "graphql-error" });
    throw { message: text, statusCode: r.statusCode, errors: r.errors } as HttpError;
  }
}

const restWritesOf = (meta: MetaQuery | undefined) => meta?.restWrites as RestWrites | undefined;

const OPTIONS = { idType: "uuid", namingConvention: "hasura-default" } as const;

/**
 * Our engine's `x_count_estimate(where)` (not Hasura's): the planner's estimate of the rows a list's where matches,
 * for a capped count past its cap (recordCounter.ts). Undefined, quietly, where it cannot be had — a real Hasura
 * has no such field, and the list then reads "1,000+".
 */
async function countEstimate(client: GraphQLClient, table: string, where: unknown): Promise<number | undefined> {
  try {
    const data = await client.request<{ estimate: number }>(`query CountEstimate($where: ${table}_bool_exp) { estimate: ${table}_count_estimate(where: $where) }`, { where });
    return data.estimate;
  } catch {
    return undefined;
  }
}

/** A list asking for `countEstimate` in its meta: its rows and capped count, and past the cap the estimate for the where it sent. */
async function listWithEstimate(client: GraphQLClient, params: GetListParams): Promise<GetListResponse> {
  let sent: Record<string, unknown> | undefined;
  // @refinedev/hasura builds the where from the filters and the meta's own; the estimate asks the same one
  const recording = {
    request: (query: never, variables?: Record<string, unknown>) => {
      sent = variables;
      return client.request(query, variables);
    },
  } as unknown as GraphQLClient;
  const result = await dataProvider(recording, OPTIONS).getList(params);
  if (!isCappedTotal(result.total)) return result;
  return { ...result, countEstimate: await countEstimate(client, String(params.meta?.operation ?? params.resource), sent?.where) };
}

/** `answers`: where each read's answer is kept for the live provider (answeredRows.ts). */
export function createDataProvider(client: GraphQLClient = createGraphQLClient(), answers?: AnsweredRows): Required<DataProvider> {
  const base = dataProvider(client, OPTIONS);
  const wrapped = { ...base, getList: (params: GetListParams) => (params.meta?.countEstimate ? listWithEstimate(client, params) : base.getList(params)) } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(wrapped)) {
    if (typeof fn !== "function" || name === "getApiUrl") continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (err) {
        throw reportDataError(err);
      }
    };
  }
  if (answers) {
    const reads: Record<string, ReadKind> = { getList: "list", getOne: "one", getMany: "many" };
    for (const [name, kind] of Object.entries(reads)) {
      const read = wrapped[name] as (params: never) => Promise<{ data: unknown }>;
      wrapped[name] = (params: never) => {
        const answer = read(params);
        answers.record(readKey(kind, params), answer.then((r) => r.data));
        return answer;
      };
    }
  }
  // @refinedev/hasura's throws "not implemented"
  wrapped.getApiUrl = () => graphqlUrl();
  const graphqlCreate = wrapped.create as DataProvider["create"];
  const graphqlUpdate = wrapped.update as DataProvider["update"];
  wrapped.create = ((params) => {
    const path = restWritesOf(params.meta)?.create;
    return path ? restWrite("POST", path, params.variables) : graphqlCreate(params);
  }) as DataProvider["create"];
  wrapped.update = ((params) => {
    const path = restWritesOf(params.meta)?.update;
    return path ? restWrite("PUT", path.replace(":id", encodeURIComponent(String(params.id))), params.variables) : graphqlUpdate(params);
  }) as DataProvider["update"];
  return wrapped as Required<DataProvider>;
}
