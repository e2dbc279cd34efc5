/** Downloads a file the server makes (a PA paper, a receipt, a statement, the accounting export) under the caller's session. */
import { authorizedFetch } from "../../app/api.ts";
import { apiUrl } from "../../app/config.ts";

export async function downloadFile(path: string, fileName: string): Promise<void> {
  const res = await authorizedFetch(apiUrl(`/api/v2${path}`));
  if (!res.ok) throw (await res.json().catch(() => ({ message: res.statusText }))) as unknown;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const downloadPdf = (path: string, name: string): Promise<void> => downloadFile(path, `${name}.pdf`);
