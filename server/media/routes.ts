/**
 * Media over HTTP at the server root (spec: {media}/media/public and {media}/media/download):
 * PUT /media/upload?key&expires&uid&sig (the signed URL from the presign call), GET /media/public?key
 * (inline), GET /media/download?key (attachment). Keys carry a random UUID, so links work from plain
 * <img>/<a> tags without a bearer token.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { MediaError, type MediaService } from "./index.ts";
import { FILE_MAX_BYTES } from "./paths.ts";

function sendError(reply: FastifyReply, e: unknown) {
  if (e instanceof MediaError) return reply.code(e.statusCode).send({ success: false, message: e.message });
  throw e;
}

/** If-None-Match holds the current tag (or *): the browser's copy is still good. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

export const mediaRoutes: FastifyPluginAsync<{ media: MediaService }> = async (app, { media }) => {
  // Uploads are raw bytes of any type, left unread here: the service checks the signature and the declared
  // size first, then streams the body to disk (issue 11). A refused upload closes the connection unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_req, _payload, done) => done(null));

  app.put<{ Querystring: { key?: string; expires?: string; uid?: string; sig?: string } }>("/media/upload", async (request, reply) => {
    const { key, expires, uid, sig } = request.query;
    if (!key || !expires || !sig) return reply.code(403).header("Connection", "close").send({ success: false, message: "Invalid upload signature" });
    const length = request.headers["content-length"];
    const declared = length === undefined ? undefined : Number(length);
    if (declared !== undefined && !(Number.isInteger(declared) && declared >= 0)) return reply.code(400).header("Connection", "close").send({ success: false, message: "Invalid Content-Length" });
    if (declared !== undefined && declared > FILE_MAX_BYTES) return reply.code(413).header("Connection", "close").send({ success: false, message: "The file size exceeds the allowable limit." });
    try {
      const stored = await media.store({ key, expires: Number(expires), uid: uid ?? "" }, sig, request.raw.iterator({ destroyOnReturn: false }), declared);
      return reply.send({ success: true, data: stored });
    } catch (e) {
      if (!request.raw.readableEnded) reply.header("Connection", "close");
      return sendError(reply, e);
    }
  });

  const serve = (disposition: "inline" | "attachment") => async (request: FastifyRequest<{ Querystring: { key?: string } }>, reply: FastifyReply) => {
    try {
      const { stream, type, size, fileName, etag } = await media.read(request.query.key ?? "");
      reply.header("ETag", etag).header("Cache-Control", "private, max-age=3600");
      if (ifNoneMatch(request.headers["if-none-match"], etag)) {
        stream.destroy();
        return reply.code(304).send();
      }
      const inline = disposition === "inline" && type.inline;
      return reply
        .header("Content-Type", type.contentType)
        .header("Content-Length", size)
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        // media links also appear in e-mails read in web mail (helmet's default is same-origin)
        .header("Cross-Origin-Resource-Policy", "cross-origin")
        .header("Content-Disposition", `${inline ? "inline" : "attachment"}; filename="${fileName.replace(/"/g, "")}"`)
        .send(stream);
    } catch (e) {
      return sendError(reply, e);
    }
  };
  // Stored files go out as they are (issue 20): images and PDFs are compressed already.
  app.get<{ Querystring: { key?: string } }>("/media/public", { compress: false }, serve("inline"));
  app.get<{ Querystring: { key?: string } }>("/media/download", { compress: false }, serve("attachment"));
};
