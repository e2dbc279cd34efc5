import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

export const distDir = path.resolve(import.meta.dirname, "../dist");

/** Vite's output under assets/ carries a content hash in every name: a changed file is a new URL. */
export const HASHED_ASSET_CACHE = "public, max-age=31536000, immutable";
/** index.html and the other unhashed files: revalidated on every visit (ETag), so a deployment shows at once. */
export const UNHASHED_CACHE = "no-cache";

/**
 * Security headers that only mean something on a document (CSP, framing, referrer, HSTS…): a script or
 * style sheet does not need them, and the ~0.7 kB they weigh went out again with each of a page's
 * dozens of chunks. Kept on assets: nosniff and Cross-Origin-Resource-Policy. No ETag or Last-Modified
 * either: an immutable file is never revalidated.
 */
const NOT_FOR_HASHED_ASSETS = [
  "content-security-policy", "cross-origin-opener-policy", "origin-agent-cluster", "referrer-policy",
  "strict-transport-security", "x-dns-prefetch-control", "x-download-options", "x-frame-options",
  "x-permitted-cross-domain-policies", "x-xss-protection", "etag", "last-modified", "accept-ranges",
];

/**
 * The built browser app at /; unknown non-API paths get index.html so the client router decides.
 * Text files are served from the .br/.gz copies the build wrote beside them (vite.config.ts), chosen by
 * the request's Accept-Encoding; hashed assets are cached for a year, the rest revalidated (issue 20).
 */
export async function serveBrowserApp(app: FastifyInstance, root: string = distDir) {
  const cacheHeaders = (reply: FastifyReply, filePath: string) => {
    const hashed = path.relative(root, filePath).split(path.sep)[0] === "assets";
    reply.header("Cache-Control", hashed ? HASHED_ASSET_CACHE : UNHASHED_CACHE);
    if (!hashed) return;
    for (const name of NOT_FOR_HASHED_ASSETS) {
      reply.removeHeader(name); // set by the static plugin
      reply.raw.removeHeader(name); // set by helmet on the raw response
    }
  };
  await app.register(fastifyStatic, {
    root,
    prefix: "/",
    wildcard: false,
    index: "index.html",
    preCompressed: true,
    cacheControl: false,
    setHeaders: cacheHeaders,
  });
}
