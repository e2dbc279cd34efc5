/**
 * Media keys and where they live on disk. A key is a relative path of safe segments
 * ([A-Za-z0-9_-] start, then [A-Za-z0-9._-]); anything else — "..", absolute paths, backslashes,
 * NUL, hidden names — is refused, and the resolved path (symlinks followed) must stay inside the root.
 */
import { randomUUID } from "node:crypto";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { IMAGE_MAX_BYTES } from "../../src/domain/validators.ts";

export class MediaPathError extends Error {}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
export const MAX_KEY_LENGTH = 512;

/** What each accepted extension is, how it is served and how large it may be. */
export interface MediaType {
  contentType: string;
  image: boolean;
  maxBytes: number;
  /** Shown in the browser by /media/public; everything else is always an attachment. */
  inline: boolean;
}

export const FILE_MAX_BYTES = 20_000_000;
const image = (contentType: string): MediaType => ({ contentType, image: true, maxBytes: IMAGE_MAX_BYTES, inline: true });
const doc = (contentType: string, inline = false): MediaType => ({ contentType, image: false, maxBytes: FILE_MAX_BYTES, inline });

/** Accepted extensions. Images are the avatar rule's gif/jpeg/png; no HTML, SVG or scripts (they would run from our origin). */
export const MEDIA_TYPES: Readonly<Record<string, MediaType>> = {
  gif: image("image/gif"),
  jpg: image("image/jpeg"),
  jpeg: image("image/jpeg"),
  png: image("image/png"),
  pdf: doc("application/pdf", true),
  txt: doc("text/plain"),
  csv: doc("text/csv"),
  doc: doc("application/msword"),
  docx: doc("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
  xls: doc("application/vnd.ms-excel"),
  xlsx: doc("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
  ppt: doc("application/vnd.ms-powerpoint"),
  pptx: doc("application/vnd.openxmlformats-officedocument.presentationml.presentation"),
  zip: doc("application/zip"),
};

export function extensionOf(key: string): string {
  const base = key.split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

export function mediaTypeOf(key: string): MediaType | undefined {
  return MEDIA_TYPES[extensionOf(key)];
}

/** Throws MediaPathError unless the key is a safe relative path of an accepted type. */
export function assertValidKey(key: unknown): asserts key is string {
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY_LENGTH) throw new MediaPathError("Invalid key");
  const segments = key.split("/");
  if (!segments.every((s) => SEGMENT.test(s) && !/^\.+$/.test(s))) throw new MediaPathError("Invalid key");
  if (!mediaTypeOf(key)) throw new MediaPathError("This file type is not accepted");
}

/** The absolute path of a key under root, refusing anything that would land outside it. */
export function mediaPath(root: string, key: string): string {
  assertValidKey(key);
  const absRoot = path.resolve(root);
  const full = path.resolve(absRoot, key);
  if (!full.startsWith(absRoot + path.sep)) throw new MediaPathError("Invalid key");
  return full;
}

/** Like mediaPath, and the existing parts of the path (symlinks resolved) are still inside the root. */
export async function containedMediaPath(root: string, key: string): Promise<string> {
  const full = mediaPath(root, key);
  const realRoot = await realpath(path.resolve(root));
  let probe = full;
  for (;;) {
    try {
      const real = await realpath(probe);
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw new MediaPathError("Invalid key");
      return full;
    } catch (e) {
      if (e instanceof MediaPathError) throw e;
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      const parent = path.dirname(probe);
      if (parent === probe) throw new MediaPathError("Invalid key");
      probe = parent;
    }
  }
}

function safeSegment(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._-]+/, "")
    .replace(/\.{2,}/g, ".")
    .slice(-100);
}

/**
 * The stored key for a requested one (spec: the call's key is the file name): the requested folder
 * (safe segments only, at most 3), a unique id, and the safe file name. Throws for refused types.
 */
export function newKeyPath(requested: string): string {
  const parts = requested.replace(/\\/g, "/").split("/").map(safeSegment).filter((s) => s !== "" && !/^\.+$/.test(s));
  const name = parts.pop() ?? "";
  const folder = parts.slice(0, 3);
  const base = name || "file";
  const keyPath = [...(folder.length ? folder : ["uploads"]), `${randomUUID()}-${base}`].join("/");
  assertValidKey(keyPath);
  return keyPath;
}
