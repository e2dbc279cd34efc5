import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

export const distDir = path.resolve(import.meta.dirname, "../dist");

/** The built browser app at /; unknown non-API paths get index.html so the client router decides. */
export async function serveBrowserApp(app: FastifyInstance) {
  await app.register(fastifyStatic, { root: distDir, prefix: "/", wildcard: false, index: "index.html" });
}
