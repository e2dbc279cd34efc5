/** Talking to the server under test over HTTP, with the admin secret as upstream sends it. */
export const ADMIN_SECRET = "conformance-admin-secret";

export interface ServerUnderTest {
  baseUrl: string;
  wsUrl: string;
  close(): Promise<void>;
}

export interface HttpResult {
  status: number;
  body: unknown;
}

/** POSTs JSON with the admin secret and any fixture headers (X-Hasura-Role, session variables), as upstream does. */
export async function post(server: ServerUnderTest, url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  const res = await fetch(server.baseUrl + url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hasura-admin-secret": ADMIN_SECRET, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the text: a non-JSON body fails the comparison with a readable message
  }
  return { status: res.status, body: parsed };
}
