// The bench's load client connection (bench/http-connection.ts) against a real Node HTTP server: a wrong
// framing would make the bench time half answers, or hang.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeRequest, HttpConnection } from "../../bench/http-connection.ts";

let server: http.Server;
let port: number;
const seen: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const sockets = new Set<import("node:net").Socket>();
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, body });
      const big = "x".repeat(200_000);
      if (req.url === "/length") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: { ok: true }, echo: body }));
      else if (req.url === "/big") res.writeHead(200, { "content-length": String(big.length + 9) }).end(`{"data":"${big}`);
      else if (req.url === "/chunked") {
        // no Content-Length: Node sends chunks, in separate writes
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"data":');
        setImmediate(() => {
          res.write(`"${big}"`);
          setImmediate(() => res.end("}"));
        });
      } else if (req.url === "/errors") res.writeHead(200).end('{"errors":[{"message":"no"}]}');
      else if (req.url === "/close") req.socket.destroy();
      // an answer the client cannot frame, on a connection the server keeps open
      else if (req.url === "/unframed") req.socket.write("HTTP/1.1 200 OK\r\n\r\n{}");
      else res.writeHead(404).end("nope");
    });
  });
  server.on("connection", (s) => {
    connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const request = (path: string, body = "{}", headers: Record<string, string> = {}) => encodeRequest({ host: "127.0.0.1", port, path, headers, body });

describe("bench HttpConnection", () => {
  it("sends the request with its headers and body, and reads a Content-Length answer", async () => {
    const c = new HttpConnection("127.0.0.1", port);
    const answer = await c.send(request("/length", '{"query":"é"}', { authorization: "Bearer t" }));
    expect(answer).toEqual({ status: 200, start: '{"data":{"ok":tr' });
    expect(seen.at(-1)).toMatchObject({ path: "/length", body: '{"query":"é"}', headers: { authorization: "Bearer t", "content-type": "application/json" } });
    c.close();
  });

  it("keeps the connection for the next request and waits for the whole body", async () => {
    const c = new HttpConnection("127.0.0.1", port);
    const before = connections;
    for (let i = 0; i < 3; i++) expect((await c.send(request("/big"))).status).toBe(200);
    expect(connections).toBe(before + 1);
    // a big answer arrives in several reads; the next answer is not mistaken for its tail
    expect(await c.send(request("/length"))).toMatchObject({ status: 200 });
    c.close();
  });

  it("reads a chunked answer to its last chunk", async () => {
    const c = new HttpConnection("127.0.0.1", port);
    expect(await c.send(request("/chunked"))).toEqual({ status: 200, start: '{"data":"xxxxxxx' });
    expect(await c.send(request("/length"))).toMatchObject({ status: 200, start: '{"data":{"ok":tr' });
    c.close();
  });

  it("gives the status and start of other answers to the caller", async () => {
    const c = new HttpConnection("127.0.0.1", port);
    expect(await c.send(request("/missing"))).toEqual({ status: 404, start: "nope" });
    expect((await c.send(request("/errors"))).start.startsWith('{"errors":')).toBe(true);
    c.close();
  });

  it("rejects when the server closes mid-request, and opens a new connection for the next one", async () => {
    const c = new HttpConnection("127.0.0.1", port);
    await expect(c.send(request("/close"))).rejects.toThrow(/closed the connection/);
    expect(await c.send(request("/length"))).toMatchObject({ status: 200 });
    c.close();
  });

  it("rejects an answer it cannot frame, and the next request on a new connection is not failed by the old one closing", async () => {
    const c = new HttpConnection("127.0.0.1", port);
    const next = await c.send(request("/unframed")).then(
      () => "framed?",
      (e: Error) => {
        expect(e.message).toMatch(/neither Content-Length nor chunked/);
        return c.send(request("/length"));
      },
    );
    expect(next).toMatchObject({ status: 200 });
    c.close();
  });

  it("refuses a second request while one is outstanding", async () => {
    const c = new HttpConnection("127.0.0.1", port);
    const first = c.send(request("/big"));
    await expect(c.send(request("/length"))).rejects.toThrow(/one request at a time/);
    expect((await first).status).toBe(200);
    c.close();
  });
});
