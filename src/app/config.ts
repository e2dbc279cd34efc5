/**
 * Browser configuration: where the server's three interfaces live and where deep links lead.
 * Same origin by default (the server serves the app; Vite proxies in development). Tests point the
 * app at an in-process server with `configureApp({ apiOrigin })`.
 */
export interface AppConfig {
  /** Origin of the server ("" = the page's own origin). */
  apiOrigin: string;
  /** Custom URL scheme of the mobile app (deep links). */
  appScheme: string;
  appStoreUrl: { ios: string; android: string };
  /** The public marketing website (deep links on other devices). */
  websiteUrl: string;
  /** Spec §9: app-store redirect delay. */
  appStoreDelayMs: number;
  /** How often the browser re-reads the access policy version. */
  policyPollMs: number;
  /** A list asking for a capped count (framework/pages/recordCounter.ts) counts at most this many rows exactly. */
  listCountCap: number;
}

const env = (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};

export const config: AppConfig = {
  apiOrigin: env.VITE_API_ORIGIN ?? "",
  appScheme: env.VITE_APP_SCHEME ?? "centreapp://",
  appStoreUrl: {
    ios: env.VITE_APP_STORE_IOS ?? "https://apps.apple.com/app/id0000000000",
    android: env.VITE_APP_STORE_ANDROID ?? "https://play.google.com/store/apps/details?id=com.centre.app",
  },
  websiteUrl: env.VITE_WEBSITE_URL ?? "https://www.example-centre.sg",
  appStoreDelayMs: 2000,
  policyPollMs: 30_000,
  listCountCap: 1_000,
};

export function configureApp(overrides: Partial<AppConfig>): void {
  Object.assign(config, overrides);
}

/** Absolute URL of a server path (/api/v2/…, /auth/…, /v1/graphql). */
export function apiUrl(path: string): string {
  return `${config.apiOrigin}${path}`;
}

export function graphqlUrl(): string {
  return apiUrl("/v1/graphql");
}

export function graphqlWsUrl(): string {
  const base = config.apiOrigin || (typeof location !== "undefined" ? location.origin : "http://localhost");
  return `${base.replace(/^http/, "ws")}/v1/graphql`;
}
