/**
 * The load client's connection: keep-alive HTTP/1.1 over one socket, one request at a time, the request's bytes
 * encoded once per round. The bench's clients share two cores with the server and PostgreSQL they measure, so
 * their own CPU is counted against the engine: node:http's client spent ~0.16 ms per request and undici's Pool
 * ~0.20 ms on bench (c), this ~0.06 ms (docs/DECISIONS.md, "The GraphQL bench's load client"). The response is
 * framed (Content-Length or chunked), its status and first bytes kept, the rest only counted.
 */
import net from "node:net";

export interface Answer {
  status: number;
  /** The first bytes of the body (latin1), enough to tell an `{"errors":` answer. */
  start: string;
}

export interface RequestParts {
  host: string;
  port: number;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const START_BYTES = 16;

/** A POST request's bytes: head and JSON body. */
export function encodeRequest(r: RequestParts): Buffer {
  const body = Buffer.from(r.body, "utf8");
  const headers = { host: `${r.host}:${r.port}`, "content-type": "application/json", "content-length": String(body.length), ...r.headers };
  const head = `POST ${r.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

type Framing = { kind: "length"; left: number } | { kind: "chunked"; pending: Buffer; chunkLeft: number; trailers: boolean };

export class HttpConnection {
  private socket: net.Socket | undefined;
  private waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | undefined;
  /** bytes of the head not yet complete */
  private head: Buffer | undefined;
  private framing: Framing | undefined;
  private status = 0;
  private start = "";

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Sends the request and resolves with the whole answer read; a socket closed in between rejects. */
  send(request: Buffer): Promise<Answer> {
    if (this.waiting) return Promise.reject(new Error("HttpConnection: one request at a time"));
    const socket = this.socket ?? this.connect();
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      socket.write(request);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    // events of a socket already replaced (closed after a failure) concern no request of this one
    socket.on("data", (bytes: Buffer) => this.socket === socket && this.read(bytes));
    socket.on("error", (e) => this.socket === socket && this.fail(e));
    // a keep-alive connection the server closed while idle is opened again by the next send
    socket.on("close", () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.fail(new Error(`${this.host}:${this.port} closed the connection before the answer was complete`));
    });
    this.socket = socket;
    return socket;
  }

  private read(bytes: Buffer): void {
    // bytes with no request outstanding: the connection is out of step, drop it
    if (!this.waiting) return this.close();
    if (!this.framing) {
      const all = this.head ? Buffer.concat([this.head, bytes]) : bytes;
      const end = all.indexOf("\r\n\r\n");
      if (end < 0) {
        this.head = all;
        return;
      }
      this.head = undefined;
      const head = all.toString("latin1", 0, end);
      this.status = Number(head.slice(9, 12));
      this.start = "";
      const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
      if (length) this.framing = { kind: "length", left: Number(length[1]) };
      else if (/\r\ntransfer-encoding:[ \t]*chunked/i.test(head)) this.framing = { kind: "chunked", pending: Buffer.alloc(0), chunkLeft: 0, trailers: false };
      else return this.fail(new Error(`an answer with neither Content-Length nor chunked encoding: ${head.split("\r\n")[0]}`));
      bytes = all.subarray(end + 4);
    }
    if (this.framing.kind === "length") this.readLength(this.framing, bytes);
    else this.readChunked(this.framing, bytes);
  }

  private keepStart(body: Buffer): void {
    if (this.start.length < START_BYTES) this.start += body.toString("latin1", 0, START_BYTES - this.start.length);
  }

  private readLength(framing: { left: number }, bytes: Buffer): void {
    if (bytes.length > framing.left) return this.fail(new Error("more bytes than the answer's Content-Length"));
    this.keepStart(bytes);
    framing.left -= bytes.length;
    if (framing.left === 0) this.done();
  }

  private readChunked(framing: Extract<Framing, { kind: "chunked" }>, bytes: Buffer): void {
    let data = framing.pending.length ? Buffer.concat([framing.pending, bytes]) : bytes;
    for (;;) {
      if (framing.chunkLeft > 0) {
        // the chunk's data and its closing CRLF
        const take = Math.min(framing.chunkLeft, data.length);
        if (framing.chunkLeft > 2) this.keepStart(data.subarray(0, Math.min(take, framing.chunkLeft - 2)));
        framing.chunkLeft -= take;
        data = data.subarray(take);
        if (framing.chunkLeft > 0) break;
      }
      const line = data.indexOf("\r\n");
      if (line < 0) break;
      if (framing.trailers) {
        data = data.subarray(line + 2);
        if (line === 0) {
          framing.pending = Buffer.alloc(0);
          return data.length ? this.fail(new Error("bytes after the end of a chunked answer")) : this.done();
        }
        continue;
      }
      const size = parseInt(data.toString("latin1", 0, line).split(";")[0], 16);
      if (!Number.isFinite(size)) return this.fail(new Error("a malformed chunk size in a chunked answer"));
      data = data.subarray(line + 2);
      if (size === 0) framing.trailers = true;
      else framing.chunkLeft = size + 2;
    }
    framing.pending = Buffer.from(data);
  }

  private done(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    this.framing = undefined;
    waiting?.resolve({ status: this.status, start: this.start });
  }

  private fail(e: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    this.framing = undefined;
    this.head = undefined;
    if (waiting) {
      this.close();
      waiting.reject(e);
    }
  }
}
