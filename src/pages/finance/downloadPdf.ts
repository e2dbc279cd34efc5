/** Downloads a PDF the server makes (a PA paper, a receipt, a statement) under the caller's session. */
import { downloadFile } from "../../framework/download.ts";

export const downloadPdf = (path: string, name: string): Promise<void> => downloadFile(path, `${name}.pdf`);
