/** Calls to the server under test outside the browser, to set a scene or check what it stored. */
import { DEMO_PASSWORD } from "../support/spec-menus.ts";

export function apiClient(baseURL: string) {
  return {
    async tokenOf(username: string): Promise<string> {
      const res = await fetch(`${baseURL}/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
      return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
    },
    async gql<T>(token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
      const res = await fetch(`${baseURL}/v1/graphql`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data: T; errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    },
    async rest<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${baseURL}/api/v2${path}`, { method, headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as { success: boolean; data: T; message?: string };
      if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
      return json.data;
    },
  };
}
