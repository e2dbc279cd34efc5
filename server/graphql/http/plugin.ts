import type { FastifyPluginAsync } from "fastify";
import websocket from "@fastify/websocket";
import type { Config } from "../../config.ts";
import type { TokenVerifier } from "../../auth/types.ts";
import type { Engine, EngineInternals } from "../engine.ts";
import { errorBody, RequestError } from "../errors.ts";
import { sessionFromHeaders } from "./session.ts";
import { handleSocket } from "./ws.ts";
import { cachingVerifier } from "./token-cache.ts";
import { POOLED_FROM_CHARS, ResponseBuffers } from "./response-bytes.ts";

/** POST /v1/graphql (JSON or a batch array) and the websocket on the same path. */
export const graphqlPlugin: FastifyPluginAsync<{ engine: Engine; verifier: TokenVerifier; config: Config }> = async (app, { engine, verifier, config }) => {
  const internals = engine as EngineInternals;
  if (!app.hasDecorator("websocketServer")) await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  // POST requests verify their token through a short cache that any change to users empties (token-cache.ts)
  const tokens = await cachingVerifier(verifier, internals.db);
  app.addHook("onClose", async () => tokens.close());
  const buffers = new ResponseBuffers();

  // Malformed JSON never reaches the engine: a clear error in Hasura's shape, nothing written.
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const code = error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ? "invalid-headers" : status === 413 ? "bad-request" : status < 500 ? "invalid-json" : "unexpected";
    const message = status === 413 ? "the request body is too large" : status < 500 ? `invalid JSON in the request body: ${error.message.replace(/^Body is not valid JSON but content-type is set to 'application\/json'$/, "malformed JSON")}` : "internal error";
    return reply.code(status === 500 ? 500 : 400).send(errorBody([new RequestError(code, message)]));
  });

  app.route({
    method: "GET",
    url: "/v1/graphql",
    handler: async (_req, reply) => reply.code(405).send(errorBody([new RequestError("bad-request", "use POST, or a websocket with the graphql-transport-ws protocol")])),
    wsHandler: (socket, request) => handleSocket(socket, request.headers, internals, config, tokens),
  });

  app.post("/v1/graphql", async (request, reply) => {
    let session;
    try {
      session = await sessionFromHeaders(request.headers, config, tokens.verifier);
    } catch (e) {
      const err = e instanceof RequestError ? e : new RequestError("unexpected", "authentication failed");
      return reply.code(err.status).send(errorBody([err]));
    }
    const body = request.body;
    if (body === undefined || body === null || (typeof body !== "object" && !Array.isArray(body))) {
      return reply.code(400).send(errorBody([new RequestError("invalid-json", "the request body must be a JSON object or an array of them")]));
    }
    const { status, text } = await internals.executeText(body, session);
    reply.code(status).header("content-type", "application/json; charset=utf-8");
    if (text.length < POOLED_FROM_CHARS) return reply.send(text);
    const lent = buffers.encode(text);
    reply.raw.once("close", lent.release);
    return reply.send(lent.bytes);
  });
};
