/**
 * GET /api/v2/media/put-presigned-url?key — spec part 1 §7: answers { url, keyPath }; the file is then
 * PUT to url (a signed, expiring address of our own media storage). Signed-in users only.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { MediaError, type MediaService } from "../media/index.ts";

export interface MediaApiOptions {
  media: MediaService;
  requireSession: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** Without PUBLIC_URL the upload URL is on the address the caller used, so the browser's PUT stays same-origin. */
  publicUrlConfigured: boolean;
}

export const mediaApiRoutes: FastifyPluginAsync<MediaApiOptions> = async (app, { media, requireSession, publicUrlConfigured }) => {
  app.get<{ Querystring: { key?: string } }>(
    "/media/put-presigned-url",
    {
      preHandler: requireSession,
      schema: { querystring: { type: "object", required: ["key"], properties: { key: { type: "string", minLength: 1, maxLength: 300 } } } },
    },
    async (request, reply) => {
      try {
        const baseUrl = publicUrlConfigured ? undefined : `${request.protocol}://${request.host}`;
        return { success: true, data: media.presign(request.query.key!, request.session?.userId, baseUrl) };
      } catch (e) {
        if (e instanceof MediaError) return reply.code(e.statusCode).send({ success: false, message: e.message });
        throw e;
      }
    },
  );
};
