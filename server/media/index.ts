/**
 * Media storage under config.mediaDir: signed upload grants, writes (size and type enforced), reads.
 * The HTTP side is in routes.ts (PUT /media/upload, GET /media/public, GET /media/download) and
 * server/api/media.ts (GET /api/v2/media/put-presigned-url).
 */
import { link, mkdir, open, rm, stat } from "node:fs/promises";
import { createReadStream, type ReadStream } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Db } from "../db/types.ts";
import { MESSAGES } from "../../src/domain/validators.ts";
import { containedMediaPath, mediaTypeOf, newKeyPath, MediaPathError, type MediaType } from "./paths.ts";
import { UPLOAD_URL_SECONDS, loadSigningSecret, signGrant, verifyGrant, type UploadGrant } from "./signing.ts";
import { imageSignatureMatches } from "./sniff.ts";

export { MediaPathError } from "./paths.ts";

export class MediaError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const MEDIA_MESSAGES = { usedLink: "This upload link has already been used." } as const;
const usedLink = () => new MediaError(409, MEDIA_MESSAGES.usedLink);

export interface MediaService {
  /** A signed PUT URL for a new object named after the requested key. */
  /** A signed upload URL on `baseUrl` (default: the configured public address). */
  presign(requestedKey: string, uid: string | undefined, baseUrl?: string): { url: string; keyPath: string };
  /**
   * Checks the grant and the declared size before reading a byte, then streams the bytes to disk, checking
   * the size as they come and an image's signature on its first bytes (issue 11: nothing held in memory).
   */
  store(grant: UploadGrant, signature: string, body: Buffer | AsyncIterable<Buffer>, declaredBytes?: number): Promise<{ keyPath: string; size: number }>;
  /** An existing object: its stream, type, size and an entity tag that changes when its bytes are replaced. */
  read(key: string): Promise<{ stream: ReadStream; type: MediaType; size: number; fileName: string; etag: string }>;
  root: string;
}

export function createMediaService(options: { mediaDir: string; publicUrl: string; db?: Db; secret?: Buffer; now?: () => number }): MediaService {
  const root = path.resolve(options.mediaDir);
  const secret = options.secret ?? loadSigningSecret(root);
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));

  return {
    root,
    presign(requestedKey, uid, baseUrl = options.publicUrl) {
      let keyPath: string;
      try {
        keyPath = newKeyPath(requestedKey);
      } catch (e) {
        if (e instanceof MediaPathError) throw new MediaError(400, e.message);
        throw e;
      }
      const grant: UploadGrant = { key: keyPath, expires: now() + UPLOAD_URL_SECONDS, uid: uid ?? "" };
      const q = new URLSearchParams({ key: grant.key, expires: String(grant.expires), uid: grant.uid, sig: signGrant(secret, grant) });
      return { url: `${baseUrl.replace(/\/$/, "")}/media/upload?${q}`, keyPath };
    },

    async store(grant, signature, body, declaredBytes) {
      const verdict = verifyGrant(secret, grant, signature, now());
      if (verdict === "bad-signature") throw new MediaError(403, "Invalid upload signature");
      if (verdict === "expired") throw new MediaError(403, "The upload link has expired");
      let full: string;
      try {
        await mkdir(root, { recursive: true });
        full = await containedMediaPath(root, grant.key);
      } catch (e) {
        if (e instanceof MediaPathError) throw new MediaError(400, e.message);
        throw e;
      }
      // Single use (issue 32 §7): a signed URL creates its object once and can never replace it.
      if (await stat(full).then(() => true, () => false)) throw usedLink();
      const type = mediaTypeOf(grant.key)!;
      const tooLarge = () => new MediaError(413, type.image ? MESSAGES.imageTooLarge : "The file size exceeds the allowable limit.");
      const declared = Buffer.isBuffer(body) ? body.length : declaredBytes;
      if (declared !== undefined && declared > type.maxBytes) throw tooLarge();
      if (declared === 0) throw new MediaError(400, "Empty upload");
      const notImage = () => new MediaError(415, "The file is not a gif, jpeg or png image");
      await mkdir(path.dirname(full), { recursive: true });
      await containedMediaPath(root, grant.key); // the folders just made are still inside the root
      const tmp = path.join(path.dirname(full), `.upload-${randomUUID()}`);
      const handle = await open(tmp, "wx", 0o640);
      let size = 0;
      try {
        try {
          let head: Buffer | undefined = type.image ? Buffer.alloc(0) : undefined;
          for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
            size += chunk.length;
            if (size > type.maxBytes) throw tooLarge();
            if (head) {
              head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES)]);
              if (head.length >= SIGNATURE_BYTES) {
                if (!imageSignatureMatches(type.contentType, head)) throw notImage();
                head = undefined;
              }
            }
            await handle.write(chunk);
          }
          if (size === 0) throw new MediaError(400, "Empty upload");
          if (head && !imageSignatureMatches(type.contentType, head)) throw notImage();
          await handle.sync();
        } finally {
          await handle.close();
        }
        // link, unlike rename, fails when the name exists: of two PUTs racing with one URL, only the first lands.
        await link(tmp, full).catch((e: NodeJS.ErrnoException) => {
          throw e.code === "EEXIST" ? usedLink() : e;
        });
      } finally {
        await rm(tmp, { force: true });
      }
      await options.db?.query(
        `insert into media_objects (key, "contentType", size, "createdBy") values ($1, $2, $3, $4)
         on conflict (key) do update set "contentType" = excluded."contentType", size = excluded.size`,
        [grant.key, type.contentType, size, /^[0-9a-f-]{36}$/i.test(grant.uid) ? grant.uid : null],
      );
      return { keyPath: grant.key, size };
    },

    async read(key) {
      let full: string;
      try {
        full = await containedMediaPath(root, key);
      } catch (e) {
        if (e instanceof MediaPathError) throw new MediaError(400, e.message);
        throw e;
      }
      const info = await stat(full).catch(() => null);
      if (!info?.isFile()) throw new MediaError(404, "Not found");
      const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      return { stream: createReadStream(full), type: mediaTypeOf(key)!, size: info.size, fileName: path.basename(full), etag };
    },
  };
}

/** The longest image signature (PNG's) checked before the rest of the upload is read. */
const SIGNATURE_BYTES = 8;

/** The key path inside a stored value: the key itself or a /media/public?key=… URL. */
export function keyPathOf(value: string): string {
  const m = /[?&]key=([^&]+)/.exec(value);
  return m ? decodeURIComponent(m[1]!) : value;
}

/** The content type of a stored object, or undefined when the store does not hold it (nothing is read). */
export async function storedType(media: MediaService, key: string): Promise<string | undefined> {
  return media.read(key).then(
    (f) => (f.stream.destroy(), f.type.contentType),
    () => undefined,
  );
}

const services = new WeakMap<object, MediaService>();

/** The one media service of a server (keyed by its config), shared by the REST call and the /media routes. */
export function mediaFor(ctx: { config: { mediaDir: string; publicUrl: string }; db?: Db }): MediaService {
  let service = services.get(ctx.config);
  if (!service) {
    const config = ctx.config;
    service = createMediaService({ mediaDir: config.mediaDir, get publicUrl() { return config.publicUrl; }, db: ctx.db });
    services.set(ctx.config, service);
  }
  return service;
}
