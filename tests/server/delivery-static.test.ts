/**
 * Delivery (issue 20): the built app is served from the .br/.gz copies the build writes beside each
 * text file; hashed assets are cached for a year (immutable), index.html and the client routes are
 * revalidated; JSON answers above 1 kB are compressed; media carry an ETag and answer 304 when unchanged.
 * The app directory here is made by the build's own pre-compression step (vite.config.ts), over files
 * shaped like Vite's output, so the test needs no full build.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { buildServer } from "../../server/app.ts";
import { configFromEnv } from "../../server/config.ts";
import { mediaPath } from "../../server/media/paths.ts";
import type { Db } from "../../server/db/types.ts";
import { precompress } from "../../vite.config.ts";
import { databaseLanes, openTestDb } from "../support/db.ts";
import { bearer, signIn } from "../support/auth.ts";

const ASSET = "assets/ListPage-Ab12Cd34.js";
const assetSource = Array.from({ length: 400 }, (_, i) => `export const label${i} = "Viewing from ${i} - ${i + 9}";`).join("\n");
const indexHtml = `<!doctype html><html lang="en"><head><title>Centre Back-office</title><script type="module" src="/${ASSET}"></script></head><body><div id="root"></div>${"<!-- padding -->".repeat(100)}</body></html>`;

function makeAppDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "delivery-app-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, ASSET), assetSource);
  writeFileSync(path.join(dir, "index.html"), indexHtml);
  const plugin = precompress();
  (plugin.configResolved as (c: unknown) => void)({ root: dir, build: { outDir: "." } });
  (plugin.closeBundle as () => void)();
  return dir;
}

for (const lane of databaseLanes()) {
  describe(`delivery of the app and the API (${lane})`, () => {
    let db: Db;
    let app: FastifyInstance;
    let appDir: string;
    let dataDir: string;
    let mediaDir: string;

    beforeAll(async () => {
      appDir = makeAppDir();
      db = await openTestDb(lane);
      dataDir = mkdtempSync(path.join(os.tmpdir(), "delivery-data-"));
      const config = { ...configFromEnv({ DATA_DIR: dataDir, SEED_DEMO: "false", TRUST_PROXY: "true" } as NodeJS.ProcessEnv, []), port: 0, host: "127.0.0.1" };
      mediaDir = config.mediaDir;
      app = await buildServer({ db, config, migrations: 0 }, { serveApp: true, appDir });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await db?.close();
      for (const d of [appDir, dataDir]) if (d) rmSync(d, { recursive: true, force: true });
    });

    it("the build writes a brotli and a gzip copy of each text file, with the same content", () => {
      const original = readFileSync(path.join(appDir, ASSET));
      expect(brotliDecompressSync(readFileSync(path.join(appDir, `${ASSET}.br`)))).toEqual(original);
      expect(gunzipSync(readFileSync(path.join(appDir, `${ASSET}.gz`)))).toEqual(original);
      expect(existsSync(path.join(appDir, "index.html.br"))).toBe(true);
    });

    it("a hashed asset is sent brotli-compressed and cached for a year", async () => {
      const res = await app.inject({ method: "GET", url: `/${ASSET}`, headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-encoding"]).toBe("br");
      expect(res.headers["content-type"]).toMatch(/javascript/);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["vary"]).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(assetSource.length / 3);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(assetSource);
    });

    it("a hashed asset carries only the headers a script needs; index.html keeps the document's security headers", async () => {
      const asset = await app.inject({ method: "GET", url: `/${ASSET}`, headers: { "accept-encoding": "br" } });
      expect(asset.headers["x-content-type-options"]).toBe("nosniff");
      expect(asset.headers["cross-origin-resource-policy"]).toBe("same-origin");
      for (const name of ["content-security-policy", "x-frame-options", "strict-transport-security", "etag", "last-modified"]) expect(asset.headers[name], name).toBeUndefined();
      const page = await app.inject({ method: "GET", url: "/company", headers: { "accept-encoding": "br" } });
      expect(String(page.headers["content-security-policy"])).toContain("script-src 'self'");
      expect(page.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(page.headers["etag"]).toBeTruthy();
    });

    it("a browser without brotli gets gzip, one without either the plain file, both cached for a year", async () => {
      const gz = await app.inject({ method: "GET", url: `/${ASSET}`, headers: { "accept-encoding": "gzip" } });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.rawPayload).toString()).toBe(assetSource);
      expect(gz.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      const plain = await app.inject({ method: "GET", url: `/${ASSET}`, headers: { "accept-encoding": "identity" } });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body).toBe(assetSource);
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    });

    it("index.html, also under a client route, is revalidated on every visit and answers 304 when unchanged", async () => {
      for (const url of ["/", "/company"]) {
        const res = await app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers["cache-control"], url).toBe("no-cache");
        expect(res.headers["content-encoding"], url).toBe("br");
        expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(indexHtml);
        const etag = res.headers["etag"];
        expect(etag, url).toBeTruthy();
        const again = await app.inject({ method: "GET", url, headers: { "accept-encoding": "br", "if-none-match": String(etag) } });
        expect(again.statusCode, url).toBe(304);
      }
    });

    it("GraphQL answers above 1 kB are compressed, small JSON answers are not", async () => {
      const { accessToken } = await signIn(app, "admin");
      const query = "{ users(limit: 30, order_by: { username: asc }) { id username email firstName lastName } }";
      const big = await app.inject({ method: "POST", url: "/v1/graphql", headers: { ...bearer(accessToken), "accept-encoding": "br, gzip" }, payload: { query } });
      expect(big.statusCode).toBe(200);
      expect(big.headers["content-encoding"]).toBe("br");
      const body = JSON.parse(brotliDecompressSync(big.rawPayload).toString()) as { data: { users: unknown[] } };
      expect(body.data.users.length).toBeGreaterThan(10);

      const gz = await app.inject({ method: "POST", url: "/v1/graphql", headers: { ...bearer(accessToken), "accept-encoding": "gzip" }, payload: { query } });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(body);

      // answers over 32k characters leave the engine as bytes in reused memory (response-bytes.ts): compressed alike
      const many = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: users(limit: 30, order_by: { username: asc }) { id username email firstName lastName }`).join(" ")} }`;
      const plain = await app.inject({ method: "POST", url: "/v1/graphql", headers: bearer(accessToken), payload: { query: many } });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(32 * 1024);
      const large = await app.inject({ method: "POST", url: "/v1/graphql", headers: { ...bearer(accessToken), "accept-encoding": "br" }, payload: { query: many } });
      expect(large.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(large.rawPayload).toString()).toBe(plain.body);

      const small = await app.inject({ method: "GET", url: "/healthz", headers: { "accept-encoding": "br, gzip" } });
      expect(small.headers["content-encoding"]).toBeUndefined();
      expect(small.json()).toMatchObject({ ok: true });
    });

    it("a media file carries an ETag and answers 304 while unchanged", async () => {
      const key = "companies/0f8fad5b-d9cb-469f-a165-70867728950e-logo.png";
      const file = mediaPath(mediaDir, key);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]));
      const url = `/media/public?key=${encodeURIComponent(key)}`;
      const first = await app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
      expect(first.statusCode).toBe(200);
      expect(first.headers["content-encoding"]).toBeUndefined();
      const etag = String(first.headers["etag"]);
      expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      const again = await app.inject({ method: "GET", url, headers: { "if-none-match": etag } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9, 9, 9]));
      const changed = await app.inject({ method: "GET", url, headers: { "if-none-match": etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers["etag"]).not.toBe(etag);
    });
  });
}
