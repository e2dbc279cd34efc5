/**
 * The 401 → refresh → retry path against the in-process server (spec part 1 §7, DESIGN §5): the client asks
 * /api/v2/auth/access-token with the username and refresh token (the POST form: the token never in a URL,
 * issue 10 §8), stores the new token and retries once;
 * when the refresh fails the session is cleared and the user goes to /login with the origin remembered.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startUiServer, type UiServer } from "../support/ui-server.ts";
import { installDomGaps, recordRequests, useServer } from "./shell-support.ts";
import { signIn, signOut } from "../../src/app/auth.ts";
import { api, setRedirectToLogin } from "../../src/app/api.ts";
import { getSession, setSession } from "../../src/app/session.ts";
import { createDataProvider } from "../../src/app/providers/data.ts";
import { parse } from "graphql";

let server: UiServer;
beforeAll(async () => {
  installDomGaps();
  server = await startUiServer();
});
afterAll(async () => server?.close());

beforeEach(async () => {
  useServer(server.baseUrl);
  await signIn("admin", "Demo@12345");
});

function breakAccessToken() {
  const s = getSession()!;
  setSession({ ...s, accessToken: `${s.accessToken.slice(0, -4)}AAAA` });
  return s;
}

describe("on a 401 the client refreshes the token once and retries", () => {
  it("JSON API (GET /users/me)", async () => {
    const before = breakAccessToken();
    const { calls, restore } = recordRequests(server.baseUrl);
    try {
      const me = await api<{ username: string }>("GET", "/users/me");
      expect(me.data?.username).toBe("admin");
    } finally {
      restore();
    }
    expect(calls.map((c) => c.split("?")[0])).toEqual(["/api/v2/users/me", "/api/v2/auth/access-token", "/api/v2/users/me"]);
    expect(calls.join(" ")).not.toContain(before.refreshToken);
    const after = getSession()!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.accessToken.endsWith("AAAA")).toBe(false);
  });

  it("GraphQL (data provider)", async () => {
    breakAccessToken();
    const { calls, restore } = recordRequests(server.baseUrl);
    try {
      const dp = createDataProvider();
      const res = await dp.custom({ url: "", method: "get", meta: { gqlQuery: parse("query { __typename }") } });
      expect((res.data as { __typename: string }).__typename).toBe("query_root");
    } finally {
      restore();
    }
    expect(calls.map((c) => c.split("?")[0])).toEqual(["/v1/graphql", "/api/v2/auth/access-token", "/v1/graphql"]);
    expect(getSession()!.accessToken.endsWith("AAAA")).toBe(false);
  });

  it("concurrent 401s share one refresh", async () => {
    breakAccessToken();
    const results = await Promise.all([api("GET", "/users/me"), api("GET", "/users/me"), api("GET", "/access/policy")]);
    expect(results.every((r) => r.success)).toBe(true);
  });
});

describe("when the refresh fails", () => {
  it("signs out and goes to /login remembering the origin", async () => {
    const s = getSession()!;
    setSession({ ...s, accessToken: "not-a-token", refreshToken: "not-a-refresh-token" });
    window.history.pushState({}, "", "/finance/invoice?page=3");
    const redirect = vi.fn();
    setRedirectToLogin(redirect);
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expect(api("GET", "/users/me")).rejects.toMatchObject({ statusCode: 401, success: false });
    log.mockRestore();
    expect(redirect).toHaveBeenCalledWith("/finance/invoice?page=3");
    expect(getSession()).toBeUndefined();
  });
});

describe("a request answered after the user signed out", () => {
  it("is refused without a refresh and without a second redirect (the sign-out chose /login)", async () => {
    window.history.pushState({}, "", "/user");
    breakAccessToken(); // the request will be refused, as one is whose token ran out around the sign-out
    const redirect = vi.fn();
    setRedirectToLogin(redirect);
    const calls: string[] = [];
    const real = globalThis.fetch;
    let releaseRequest!: () => void;
    const held = new Promise<void>((resolve) => (releaseRequest = resolve));
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const path = String(input instanceof Request ? input.url : input).replace(server.baseUrl, "").split("?")[0];
      calls.push(path);
      // The request reaches the server only after the sign-out finished.
      if (path === "/api/v2/users/me") await held;
      return real(input, init);
    });
    try {
      const inFlight = api("GET", "/users/me");
      await signOut();
      releaseRequest();
      await expect(inFlight).rejects.toMatchObject({ statusCode: 401 });
    } finally {
      spy.mockRestore();
    }
    expect(calls).toEqual(["/api/v2/users/me", "/auth/sign-out"]);
    expect(redirect).not.toHaveBeenCalled();
    expect(getSession()).toBeUndefined();
  });
});
