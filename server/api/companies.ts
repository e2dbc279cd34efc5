/**
 * POST /companies and PUT /companies/{id} (spec part 2 §7; issue 19 §3): the company form saves here, with
 * the rules GraphQL cannot express — UEN and GST number formats, a GST number when GST-registered, a colour
 * code, a logo that is an image in the media store, PA notes sanitised. Reading stays on GraphQL.
 */
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../context.ts";
import { keyPathOf, storedType, type MediaService } from "../media/index.ts";
import { sanitiseRichText } from "../security/rich-text.ts";
import { COLOUR_CODE_PATTERN, COMPANY_MESSAGES, GST_REG_NO_PATTERN, UEN_PATTERN } from "../../src/domain/companies.ts";
import { uuid, validationError } from "./validation.ts";

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max);
const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => v || null);

const companyBody = z
  .object({
    name: required(COMPANY_MESSAGES.name, 200),
    shortName: required(COMPANY_MESSAGES.shortName, 50),
    uen: required(COMPANY_MESSAGES.uen, 20).transform((v) => v.toUpperCase()).pipe(z.string().regex(UEN_PATTERN, COMPANY_MESSAGES.uenFormat)),
    payNowUen: optional(20)
      .transform((v) => v?.toUpperCase() ?? null)
      .refine((v) => v === null || UEN_PATTERN.test(v), COMPANY_MESSAGES.payNowUenFormat),
    address: optional(500),
    telNo: optional(50),
    hasGstNo: z.boolean().default(false),
    gstRefNo: optional(20).transform((v) => v?.toUpperCase() ?? null),
    colorCode: optional(9).refine((v) => v === null || COLOUR_CODE_PATTERN.test(v), COMPANY_MESSAGES.colorCode),
    paNotes: z.string().max(200_000).nullable().optional().transform((v) => (v ? sanitiseRichText(v) : null)),
    logoUrl: optional(2000),
  })
  .superRefine((c, ctx) => {
    if (c.hasGstNo && !c.gstRefNo) ctx.addIssue({ code: "custom", path: ["gstRefNo"], message: COMPANY_MESSAGES.gstRefNo });
    else if (c.gstRefNo && !GST_REG_NO_PATTERN.test(c.gstRefNo)) ctx.addIssue({ code: "custom", path: ["gstRefNo"], message: COMPANY_MESSAGES.gstRefNoFormat });
  });
type CompanyBody = z.infer<typeof companyBody>;

const COLUMNS = ["name", "shortName", "uen", "payNowUen", "address", "telNo", "hasGstNo", "gstRefNo", "colorCode", "paNotes", "logoUrl"] as const;
const RETURNING = `id, ${COLUMNS.map((c) => `"${c}"`).join(", ")}, status, "createdAt", "updatedAt"`;

/** A logo is the media store's inline address of an image that is really there. */
async function logoIsStoredImage(media: MediaService, logoUrl: string): Promise<boolean> {
  if (!/^(?:https?:\/\/[^/?#]+)?\/media\/public\?key=[^&#]+$/.test(logoUrl)) return false;
  return (await storedType(media, keyPathOf(logoUrl)))?.startsWith("image/") ?? false;
}

export const companyRoutes: FastifyPluginAsync<{ ctx: ServerContext; media: MediaService }> = async (app, { ctx, media }) => {
  const parse = async (body: unknown) => {
    const parsed = companyBody.safeParse(body ?? {});
    if (!parsed.success) return { error: parsed.error } as const;
    if (parsed.data.logoUrl && !(await logoIsStoredImage(media, parsed.data.logoUrl))) {
      return { error: new z.ZodError([{ code: "custom", path: ["logoUrl"], message: COMPANY_MESSAGES.logo, input: parsed.data.logoUrl }]) } as const;
    }
    return { data: parsed.data } as const;
  };
  const values = (c: CompanyBody) => COLUMNS.map((k) => c[k]);

  app.post("/companies", async (request, reply) => {
    const parsed = await parse(request.body);
    if ("error" in parsed) return validationError(reply, parsed.error!);
    const by = request.session?.userId ?? null;
    const { rows } = await ctx.db.query(
      `insert into companies (${COLUMNS.map((c) => `"${c}"`).join(", ")}, "createdBy", "updatedBy")
       values (${COLUMNS.map((_, i) => `$${i + 1}`).join(", ")}, $${COLUMNS.length + 1}, $${COLUMNS.length + 1}) returning ${RETURNING}`,
      [...values(parsed.data), by],
    );
    return reply.code(201).send({ success: true, data: rows[0] });
  });

  app.put<{ Params: { id: string } }>("/companies/:id", async (request, reply) => {
    const id = uuid(COMPANY_MESSAGES.notFound).safeParse(request.params.id);
    if (!id.success) return reply.code(404).send({ success: false, message: COMPANY_MESSAGES.notFound });
    const parsed = await parse(request.body);
    if ("error" in parsed) return validationError(reply, parsed.error!);
    const { rows } = await ctx.db.query(
      `update companies set ${COLUMNS.map((c, i) => `"${c}" = $${i + 2}`).join(", ")}, "updatedBy" = $${COLUMNS.length + 2}
       where id = $1 and status <> 'deleted' returning ${RETURNING}`,
      [id.data, ...values(parsed.data), request.session?.userId ?? null],
    );
    if (!rows[0]) return reply.code(404).send({ success: false, message: COMPANY_MESSAGES.notFound });
    return reply.send({ success: true, data: rows[0] });
  });
};
