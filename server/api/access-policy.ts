import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { PolicyError, type PolicyService } from "../auth/policy/index.ts";
import { validationError } from "./validation.ts";

const putBody = z.object({
  policy: z.union([z.string().min(1, "The policy is empty."), z.array(z.string()).min(1, "The policy is empty.").transform((lines) => lines.join("\n"))]),
});

/** GET /access/policy (any signed-in user) and PUT /access/policy (admin), guarded by the policy itself. */
export const accessPolicyRoutes: FastifyPluginAsync<{ policy: PolicyService }> = async (app, { policy }) => {
  app.get("/access/policy", async () => ({ success: true, data: await policy.snapshot() }));

  app.put("/access/policy", async (request, reply) => {
    const body = putBody.safeParse(request.body ?? {});
    if (!body.success) return validationError(reply, body.error);
    try {
      return { success: true, data: await policy.replace(body.data.policy, request.session?.userId) };
    } catch (e) {
      if (e instanceof PolicyError) {
        return reply.code(400).send({ success: false, message: `The policy was not saved: ${e.message}`, errors: { policy: e.message } });
      }
      throw e;
    }
  });
};
