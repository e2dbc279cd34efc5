/** HMAC-signed, expiring upload URLs: only what the presign call allowed can be PUT, and only until it expires. */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const UPLOAD_URL_SECONDS = 15 * 60;

export interface UploadGrant {
  key: string;
  /** Unix seconds. */
  expires: number;
  /** Who asked (recorded with the object); "" when unknown. */
  uid: string;
}

export function signGrant(secret: Buffer, grant: UploadGrant): string {
  return createHmac("sha256", secret).update(`PUT\n${grant.key}\n${grant.expires}\n${grant.uid}`).digest("base64url");
}

export function verifyGrant(secret: Buffer, grant: UploadGrant, signature: string, nowSeconds = Math.floor(Date.now() / 1000)): "ok" | "expired" | "bad-signature" {
  const expected = Buffer.from(signGrant(secret, grant));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "bad-signature";
  if (!Number.isFinite(grant.expires) || grant.expires < nowSeconds) return "expired";
  return "ok";
}

/**
 * The signing secret: MEDIA_SIGNING_SECRET when set (several instances), else one generated on first
 * use and kept beside the media root (so restarts keep issued URLs valid).
 */
export function loadSigningSecret(mediaDir: string, env = process.env): Buffer {
  if (env.MEDIA_SIGNING_SECRET) return Buffer.from(env.MEDIA_SIGNING_SECRET);
  const file = path.join(path.dirname(path.resolve(mediaDir)), "media-signing.key");
  try {
    return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32);
    writeFileSync(file, secret.toString("base64"), { mode: 0o600, flag: "wx" });
    return secret;
  }
}
