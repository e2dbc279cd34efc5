/** An error for the client in Hasura's shape: {"errors":[{"message","extensions":{"path","code"}}]}. */
export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly path = "$",
    /** HTTP status; Hasura answers GraphQL errors with 200. */
    readonly status = 200,
    readonly internal?: unknown,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

export function errorBody(errors: readonly RequestError[], isAdmin = false): { errors: unknown[] } {
  return {
    errors: errors.map((e) => ({
      message: e.message,
      extensions: { path: e.path, code: e.code, ...(isAdmin && e.internal ? { internal: e.internal } : {}) },
    })),
  };
}
