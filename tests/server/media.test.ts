/**
 * Media (spec part 1 §7, §8): GET /api/v2/media/put-presigned-url?key answers { url, keyPath }; the file is
 * PUT to that signed, expiring url; GET /media/public and /media/download serve it. Size and type are
 * enforced by the server, and no key can read or write outside the media root.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { configFromEnv } from "../../server/config.ts";
import type { Db } from "../../server/db/types.ts";
import { createIdentity } from "../../server/auth/index.ts";
import { createPolicy } from "../../server/auth/policy/index.ts";
import { apiPlugin } from "../../server/api/index.ts";
import { mediaFor, createMediaService } from "../../server/media/index.ts";
import { mediaRoutes } from "../../server/media/routes.ts";
import { assertValidKey, containedMediaPath, mediaPath, newKeyPath, MediaPathError } from "../../server/media/paths.ts";
import { signGrant, verifyGrant } from "../../server/media/signing.ts";
import { DEMO_PASSWORD } from "../../server/db/seed-demo.ts";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { bearer, signIn, startTestServer, type TestServer } from "../support/auth.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

describe("media keys never leave the media root", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "media-keys-"));
  const outside = mkdtempSync(path.join(os.tmpdir(), "media-outside-"));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it.each([
    "../x.png",
    "a/../../x.png",
    "/etc/passwd.png",
    "..\\x.png",
    "a/./b.png",
    "a//b.png",
    ".hidden.png",
    "a/.../b.png",
    "x.png\0.txt",
    "%2e%2e/x.png",
    "",
    "a/" + "b".repeat(600) + ".png",
  ])("refuses %j", (key) => {
    expect(() => assertValidKey(key)).toThrow(MediaPathError);
    expect(() => mediaPath(root, key)).toThrow(MediaPathError);
  });

  it("refuses types that could run from our origin", () => {
    for (const key of ["a/x.html", "a/x.svg", "a/x.js", "a/x", "a/x.exe"]) expect(() => assertValidKey(key)).toThrow(MediaPathError);
  });

  it("accepts safe keys inside the root", () => {
    expect(mediaPath(root, "companies/2026/logo.png")).toBe(path.join(root, "companies/2026/logo.png"));
  });

  it("refuses a symlink that points outside", async () => {
    writeFileSync(path.join(outside, "secret.png"), PNG);
    symlinkSync(outside, path.join(root, "escape"));
    await expect(containedMediaPath(root, "escape/secret.png")).rejects.toThrow(MediaPathError);
    await expect(containedMediaPath(root, "escape/new/new.png")).rejects.toThrow(MediaPathError);
  });

  it("the stored key keeps a safe folder and file name and adds a unique id", () => {
    const k = newKeyPath("companies/My Logo (1).PNG");
    expect(k).toMatch(/^companies\/[0-9a-f-]{36}-My_Logo_1_\.PNG$/);
    expect(newKeyPath("../../etc/passwd.png")).toMatch(/^etc\/[0-9a-f-]{36}-passwd\.png$/);
    expect(newKeyPath("logo.png")).toMatch(/^uploads\/[0-9a-f-]{36}-logo\.png$/);
    expect(() => newKeyPath("evil.html")).toThrow(MediaPathError);
  });
});

describe("upload signatures", () => {
  const secret = Buffer.from("s3cret");
  const grant = { key: "a/b.png", expires: 2_000, uid: "u" };
  it("verify, expire, and bind key, expiry and user", () => {
    const sig = signGrant(secret, grant);
    expect(verifyGrant(secret, grant, sig, 1_000)).toBe("ok");
    expect(verifyGrant(secret, grant, sig, 2_001)).toBe("expired");
    expect(verifyGrant(secret, { ...grant, key: "a/c.png" }, sig, 1_000)).toBe("bad-signature");
    expect(verifyGrant(secret, { ...grant, expires: 9_999 }, sig, 1_000)).toBe("bad-signature");
    expect(verifyGrant(secret, { ...grant, uid: "v" }, sig, 1_000)).toBe("bad-signature");
    expect(verifyGrant(Buffer.from("other"), grant, sig, 1_000)).toBe("bad-signature");
  });
});

for (const lane of databaseLanes()) {
  describe(`media over HTTP (${lane})`, () => {
    let db: Db;
    let app: FastifyInstance;
    let dataDir: string;
    let token: string;
    let mediaDir: string;

    beforeAll(async () => {
      db = await openTestDb(lane);
      dataDir = mkdtempSync(path.join(os.tmpdir(), "media-http-"));
      const config = { ...configFromEnv({ DATA_DIR: dataDir } as NodeJS.ProcessEnv, []), publicUrl: "http://media.test", publicUrlConfigured: true };
      mediaDir = config.mediaDir;
      const ctx = { db, config, migrations: 0 };
      const identity = await createIdentity(ctx);
      const policy = await createPolicy(ctx);
      app = Fastify({ bodyLimit: 5 * 1024 * 1024 });
      await app.register(identity.routes);
      await app.register(apiPlugin, { prefix: "/api/v2", ctx, identity, policy });
      await app.register(mediaRoutes, { media: mediaFor(ctx) });
      app.addHook("onClose", async () => policy.close());
      const signIn = await app.inject({ method: "POST", url: "/auth/sign-in", payload: { username: "admin", password: DEMO_PASSWORD } });
      token = (signIn.json() as { data: { accessToken: string } }).data.accessToken;
    });
    afterAll(async () => {
      await app?.close();
      await db?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const presign = (key: string, auth = true) =>
      app.inject({ method: "GET", url: `/api/v2/media/put-presigned-url?key=${encodeURIComponent(key)}`, headers: auth ? { authorization: `Bearer ${token}` } : {} });
    const uploadPath = (url: string) => url.replace("http://media.test", "");

    it("the presign call needs a signed-in user", async () => {
      expect((await presign("logo.png", false)).statusCode).toBe(401);
    });

    it("answers {success, data: {url, keyPath}} and the PUT stores the file, served inline and as download", async () => {
      const res = await presign("companies/logo.png");
      expect(res.statusCode).toBe(200);
      const body = res.json() as { success: boolean; data: { url: string; keyPath: string } };
      expect(body.success).toBe(true);
      expect(body.data.keyPath).toMatch(/^companies\/[0-9a-f-]{36}-logo\.png$/);
      expect(body.data.url).toMatch(/^http:\/\/media\.test\/media\/upload\?key=.+&expires=\d+&uid=.*&sig=.+$/);

      const put = await app.inject({ method: "PUT", url: uploadPath(body.data.url), payload: PNG, headers: { "content-type": "image/png" } });
      expect(put.statusCode).toBe(200);
      expect(readFileSync(path.join(mediaDir, body.data.keyPath))).toEqual(PNG);
      const row = await db.query<{ size: string; contentType: string }>(`select size::text, "contentType" from media_objects where key = $1`, [body.data.keyPath]);
      expect(row.rows[0]).toEqual({ size: String(PNG.length), contentType: "image/png" });

      const shown = await app.inject({ method: "GET", url: `/media/public?key=${encodeURIComponent(body.data.keyPath)}` });
      expect(shown.statusCode).toBe(200);
      expect(shown.headers["content-type"]).toBe("image/png");
      expect(shown.headers["content-disposition"]).toMatch(/^inline/);
      expect(shown.headers["x-content-type-options"]).toBe("nosniff");
      expect(shown.rawPayload).toEqual(PNG);

      const downloaded = await app.inject({ method: "GET", url: `/media/download?key=${encodeURIComponent(body.data.keyPath)}` });
      expect(downloaded.statusCode).toBe(200);
      expect(downloaded.headers["content-disposition"]).toMatch(/^attachment; filename=".+-logo\.png"$/);
    });

    it("refuses an image over 5,000,000 bytes with the spec's message", async () => {
      const { data } = (await presign("big.png")).json() as { data: { url: string; keyPath: string } };
      const big = Buffer.concat([PNG, Buffer.alloc(5_000_001 - PNG.length)]);
      const put = await app.inject({ method: "PUT", url: uploadPath(data.url), payload: big, headers: { "content-type": "image/png" } });
      expect(put.statusCode).toBe(413);
      expect(put.json()).toMatchObject({ success: false, message: "The image size exceeds the allowable limit." });
      expect(existsSync(path.join(mediaDir, data.keyPath))).toBe(false);
    });

    it("accepts an image of exactly 5,000,000 bytes", async () => {
      const { data } = (await presign("exact.png")).json() as { data: { url: string } };
      const exact = Buffer.concat([PNG, Buffer.alloc(5_000_000 - PNG.length)]);
      const put = await app.inject({ method: "PUT", url: uploadPath(data.url), payload: exact, headers: { "content-type": "image/png" } });
      expect(put.statusCode).toBe(200);
    });

    it("a signed URL is single-use: a second PUT with it is refused and the file stays as first uploaded (issue 32 §7)", async () => {
      const { data } = (await presign("avatars/me.png")).json() as { data: { url: string; keyPath: string } };
      const first = await app.inject({ method: "PUT", url: uploadPath(data.url), payload: PNG, headers: { "content-type": "image/png" } });
      expect(first.statusCode).toBe(200);
      const other = Buffer.concat([PNG, Buffer.from("replaced")]);
      const again = await app.inject({ method: "PUT", url: uploadPath(data.url), payload: other, headers: { "content-type": "image/png" } });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ success: false, message: "This upload link has already been used." });
      expect(readFileSync(path.join(mediaDir, data.keyPath))).toEqual(PNG);
      expect((await app.inject({ method: "GET", url: `/media/public?key=${encodeURIComponent(data.keyPath)}` })).rawPayload).toEqual(PNG);
    });

    /** A PUT that declares `declared` bytes and sends only the first 64 KiB: the answer must come before the rest. */
    const partialPut = async (url: string, first: Buffer, declared: number) => {
      const address = app.server.address();
      if (!address || typeof address === "string") await app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = app.server.address() as { port: number };
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, method: "PUT", path: url, headers: { "content-type": "image/png", "content-length": declared } }, (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode!, body });
          });
        });
        req.on("error", reject);
        req.write(first); // never ended: a server that waits for the whole body never answers
      });
    };

    it("refuses a bad-signature upload from its headers, before reading the body (issue 11)", async () => {
      const { data } = (await presign("huge.png")).json() as { data: { url: string } };
      const tampered = uploadPath(data.url).replace(/sig=[^&]+/, "sig=AAAA");
      const r = await partialPut(tampered, Buffer.concat([PNG, Buffer.alloc(65_536)]), 20_000_000);
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body)).toEqual({ success: false, message: "Invalid upload signature" });
    });

    it("refuses a declared size over the limit, and a wrong image signature, after the first bytes only", async () => {
      const big = (await presign("declared.png")).json() as { data: { url: string; keyPath: string } };
      const tooBig = await partialPut(uploadPath(big.data.url), Buffer.concat([PNG, Buffer.alloc(65_536)]), 20_000_000);
      expect(tooBig.status).toBe(413);
      expect(JSON.parse(tooBig.body)).toMatchObject({ message: "The image size exceeds the allowable limit." });
      const fake = (await presign("fake-stream.png")).json() as { data: { url: string; keyPath: string } };
      const notPng = await partialPut(uploadPath(fake.data.url), Buffer.alloc(65_536, 0x41), 4_000_000);
      expect(notPng.status).toBe(415);
      expect(existsSync(path.join(mediaDir, fake.data.keyPath))).toBe(false);
      expect(readdirSync(path.dirname(path.join(mediaDir, fake.data.keyPath))).filter((f) => f.startsWith(".upload-"))).toEqual([]);
    });

    it("refuses bytes that are not the image type the key says", async () => {
      const { data } = (await presign("fake.png")).json() as { data: { url: string } };
      const put = await app.inject({ method: "PUT", url: uploadPath(data.url), payload: Buffer.from("<script>alert(1)</script>"), headers: { "content-type": "image/png" } });
      expect(put.statusCode).toBe(415);
    });

    it("refuses types it does not serve safely", async () => {
      expect((await presign("page.html")).statusCode).toBe(400);
      expect((await presign("icon.svg")).statusCode).toBe(400);
    });

    it("refuses a tampered, unsigned or expired upload", async () => {
      const { data } = (await presign("a.png")).json() as { data: { url: string } };
      const tampered = uploadPath(data.url).replace(/key=[^&]+/, `key=${encodeURIComponent("../../escape.png")}`);
      expect((await app.inject({ method: "PUT", url: tampered, payload: PNG, headers: { "content-type": "image/png" } })).statusCode).toBe(403);
      expect((await app.inject({ method: "PUT", url: "/media/upload?key=x.png", payload: PNG, headers: { "content-type": "image/png" } })).statusCode).toBe(403);
      const expiredService = createMediaService({ mediaDir, publicUrl: "http://media.test", now: () => 0 });
      const old = expiredService.presign("old.png", undefined);
      const q = new URL(old.url).searchParams;
      await expect(mediaFor({ config: { mediaDir, publicUrl: "" } }).store({ key: q.get("key")!, expires: Number(q.get("expires")), uid: "" }, q.get("sig")!, PNG)).rejects.toThrow(/expired/);
      expect(existsSync(path.join(dataDir, "escape.png"))).toBe(false);
    });

    it("a signed traversal key can never be written", async () => {
      const service = createMediaService({ mediaDir, publicUrl: "http://media.test", secret: Buffer.from("k") });
      for (const key of ["../escape.png", "a/../../escape.png", "/tmp/escape.png"]) {
        const grant = { key, expires: Math.floor(Date.now() / 1000) + 60, uid: "" };
        await expect(service.store(grant, signGrant(Buffer.from("k"), grant), PNG)).rejects.toMatchObject({ statusCode: 400 });
      }
      expect(readdirSync(dataDir)).not.toContain("escape.png");
    });

    it.each(["../config.ts", "../../package.json", "..%2F..%2Fpackage.json", "/etc/passwd", "media-signing.key", "../media-signing.key", ""])(
      "reading %j outside the media root is refused",
      async (key) => {
        for (const route of ["/media/public", "/media/download"]) {
          const res = await app.inject({ method: "GET", url: `${route}?key=${key}` });
          expect([400, 404]).toContain(res.statusCode);
          expect(res.body).not.toMatch(/BEGIN|export|root:/);
        }
      },
    );

    it("a symlink inside the media root cannot reach outside", async () => {
      const outside = mkdtempSync(path.join(os.tmpdir(), "media-out-"));
      writeFileSync(path.join(outside, "secret.png"), PNG);
      mkdirSync(mediaDir, { recursive: true });
      symlinkSync(outside, path.join(mediaDir, "link"));
      const res = await app.inject({ method: "GET", url: `/media/public?key=link/secret.png` });
      expect(res.statusCode).toBe(400);
      rmSync(outside, { recursive: true, force: true });
    });

    it("an unknown key is 404", async () => {
      expect((await app.inject({ method: "GET", url: `/media/public?key=uploads/none.png` })).statusCode).toBe(404);
    });
  });
}

describe.each(databaseLanes())("upload URLs without PUBLIC_URL (%s)", (lane) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(lane);
    token = (await signIn(server.app, "admin")).accessToken;
  });
  afterAll(async () => server?.close());

  it("are on the address the browser used, so its PUT is same-origin (localhost or 127.0.0.1 alike)", async () => {
    for (const host of ["127.0.0.1:9123", "localhost:9000"]) {
      const res = await server.app.inject({ method: "GET", url: "/api/v2/media/put-presigned-url?key=a.png", headers: { ...bearer(token), host } });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { data: { url: string } }).data.url).toMatch(new RegExp(`^http://${host.replace(/\./g, "\\.")}/media/upload\\?key=`));
    }
  });
});
