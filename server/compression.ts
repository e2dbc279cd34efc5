/**
 * Compressed responses (issue 20): JSON of GraphQL, REST and identity answers above 1 kB goes out brotli-
 * or gzip-compressed by @fastify/compress. Registered before any route, because the plugin attaches
 * itself to each route as it is declared. Not touched: the websocket (an upgrade, never an HTTP reply),
 * the built app (pre-compressed files, see static.ts: a response that already has a Content-Encoding is
 * left alone) and media (routes with `compress: false`: uploads are mostly images and PDFs, already
 * compressed, streamed with their length). Request bodies are not decompressed: a route's body limit is
 * meant for the bytes on the wire.
 */
import zlib from "node:zlib";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Responses smaller than this are sent as they are: compressing a few hundred bytes saves nothing. */
export const COMPRESS_THRESHOLD = 1024;

export async function compressResponses(app: FastifyInstance): Promise<void> {
  app.addHook("onRoute", (route) => {
    route.decompress ??= false;
  });
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ["br", "gzip"],
    // Quality 4: most of brotli's gain at a fraction of the CPU of the default 11, for answers made per request.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
