import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

export const distDir = path.resolve(import.meta.dirname, "../dist");

/** Vite's output under assets/ carries a content hash in every name: a changed file is a new URL. */
export const HASHED_ASSET_CACHE = "public, max-age=31536000, immutable";
/** index.html and the other unhashed files: revalidated on every visit (ETag), so a deployment shows at once. */
export const UNHASHED_CACHE = "no-cache";


/**
 * The built browser app at /; unknown non-API paths get index.html so the client router decides.
 * Text files are served from the .br/.gz copies the build wrote beside them (vite.config.ts), chosen by
 * the request's Accept-Encoding; hashed assets are cached for a year, the rest revalidated (issue 20).
 */
export async function serveBrowserApp(app: FastifyInstance, root: string = distDir) {
  const cacheHeaders = (reply: FastifyReply, filePath: string) => {
    const hashed = path.relative(root, filePath).split(path.sep)[0] === "assets";
    reply.header("Cache-Control", hashed ? HASHED_ASSET_CACHE : UNHASHED_CACHE);
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
