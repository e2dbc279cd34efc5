/**
 * Files the browser saves: a blob made on the page (CSV, Excel) or a file the server writes (PDF, CSV), under the
 * name given. The object URL lives a while after the click, since some browsers read it after the click returns.
 */
import { authorizedFetch } from "../app/api.ts";
import { apiUrl } from "../app/config.ts";

export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** CSV text as a file (UTF-8). */
export const saveCsv = (csv: string, fileName: string): void => saveFile(new Blob([csv], { type: "text/csv;charset=utf-8" }), fileName);

/** A file the API writes (`path` under /api/v2), saved as `fileName`; a refusal is thrown as the server's answer. */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const res = await authorizedFetch(apiUrl(`/api/v2${path}`));
  if (!res.ok) throw (await res.json().catch(() => ({ message: res.statusText }))) as unknown;
  saveFile(await res.blob(), fileName);
}
