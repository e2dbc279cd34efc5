/**
 * Request logs without secrets (issue 10 §8): the spec's refresh call carries the refresh token in its query
 * string (GET /api/v2/auth/access-token?username&refreshToken), signed upload URLs carry their signature.
 * Logged URLs keep the parameter names and hide such values.
 */
import type { FastifyServerOptions } from "fastify";

/** Query parameters whose values never reach a log. */
const SECRET_PARAMS = /token|secret|password|^sig$|^code$/i;
export const REDACTED = "[redacted]";

/** The URL as it may be logged: secret query values replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is logged as sent
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${params.join("&")}`;
}

export type LoggerSetting = boolean | { level?: string; stream?: { write(line: string): void } };

/** Fastify's logger option: off, or pino with request serialisers that redact secrets. */
export function loggerOptions(setting: LoggerSetting | undefined): FastifyServerOptions["logger"] {
  if (!setting) return false;
  const base = setting === true ? {} : setting;
  return {
    ...base,
    redact: ["req.headers.authorization", "req.headers.cookie", "req.headers['x-hasura-admin-secret']"],
    serializers: {
      req: (req: { method?: string; url?: string; hostname?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url ?? ""),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
  };
}
