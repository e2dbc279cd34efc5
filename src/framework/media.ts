/**
 * The browser side of media (spec part 1 §7): ask the API for a signed PUT URL, then PUT the file.
 * The shell can point the framework at its token store with `configureFramework`.
 */
export interface FrameworkConfig {
  /** Base of the REST API. */
  apiBase: string;
  /** Base of the media server ({media} in the spec); "" for this origin. */
  mediaBase: string;
  /** fetch for the REST API, adding the signed-in user's bearer token (the shell passes its authorizedFetch). */
  apiFetch: (input: string, init?: RequestInit) => Promise<Response>;
}

/** Default: the token of the stored session marker (src/app/session.ts keeps it under this key). */
function storedAccessToken(): string | null {
  try {
    const raw = typeof localStorage === "undefined" ? null : localStorage.getItem("backoffice.session");
    return raw ? ((JSON.parse(raw) as { accessToken?: string }).accessToken ?? null) : null;
  } catch {
    return null;
  }
}

const config: FrameworkConfig = {
  apiBase: "/api/v2",
  mediaBase: "",
  apiFetch: (input, init) => {
    const token = storedAccessToken();
    const headers = new Headers(init?.headers);
    if (token) headers.set("Authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  },
};

export function configureFramework(changes: Partial<FrameworkConfig>): void {
  Object.assign(config, changes);
}

export function frameworkConfig(): Readonly<FrameworkConfig> {
  return config;
}

export interface PresignedUpload {
  url: string;
  keyPath: string;
}

/** A media key for an upload: "<folder>/<timestamp>-<random>-<safe file name>". */
export function mediaKey(folder: string, fileName: string): string {
  const safe = fileName.normalize("NFKD").replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(-80) || "file";
  return `${folder}/${Date.now()}-${Math.random().toString(36).slice(2, 8)}-${safe}`;
}

export async function presignUpload(key: string): Promise<PresignedUpload> {
  const response = await config.apiFetch(`${config.apiBase}/media/put-presigned-url?key=${encodeURIComponent(key)}`);
  const body = (await response.json().catch(() => null)) as { success?: boolean; data?: PresignedUpload } | null;
  if (!response.ok || !body?.success || !body.data) throw new Error("presign refused");
  return body.data;
}

/** Uploads a file; resolves to the key path under which it is stored. */
export async function uploadFile(file: Blob & { name?: string; type: string }, folder: string): Promise<string> {
  const { url, keyPath } = await presignUpload(mediaKey(folder, file.name ?? "file"));
  // The bytes, not the Blob object: works with any fetch implementation (and in jsdom tests).
  const body = await file.arrayBuffer();
  const response = await fetch(url, { method: "PUT", body, headers: { "Content-Type": file.type || "application/octet-stream" } });
  if (!response.ok) throw new Error(`upload refused: ${response.status}`);
  return keyPath;
}

/** The address that shows a stored image inline. */
export const publicMediaUrl = (keyPath: string) => `${config.mediaBase}/media/public?key=${encodeURIComponent(keyPath)}`;
/** The address that downloads a stored file. */
export const downloadMediaUrl = (keyPath: string) => `${config.mediaBase}/media/download?key=${encodeURIComponent(keyPath)}`;

/** The key path inside a stored value: either the key itself or a /media/public?key=… URL. */
export function keyPathOf(value: string): string {
  const m = /[?&]key=([^&]+)/.exec(value);
  return m ? decodeURIComponent(m[1]!) : value;
}
