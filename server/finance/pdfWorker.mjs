/**
 * A thread that makes PDFs (server/finance/pdfMaker.ts starts it). pdfmake lays text out synchronously: a
 * long payment-advice note took seconds on the main thread, during which no request (/healthz included) was
 * answered. Here only this thread is busy, and the main thread ends it when it outlives the time limit.
 *
 * Plain JavaScript on purpose: a worker is loaded by Node itself, with no TypeScript loader (tsx, vitest).
 *
 * Message in:  { id, doc, footerText } — a pdfmake document without functions (they cannot cross threads);
 *              footerText becomes the footer "<footerText> · page N of M".
 * Message out: { id, ok: true, pdf: Uint8Array } | { id, ok: false, message }
 */
import { parentPort } from "node:worker_threads";
import PdfPrinter from "pdfmake";

// The standard Helvetica fonts: no font files to ship.
const printer = new PdfPrinter({ Helvetica: { normal: "Helvetica", bold: "Helvetica-Bold", italics: "Helvetica-Oblique", bolditalics: "Helvetica-BoldOblique" } });

function render(doc, footerText) {
  if (footerText) {
    doc.footer = (page, pages) => ({ text: `${footerText} · page ${page} of ${pages}`, alignment: "center", fontSize: 7, color: "#888888", margin: [0, 20, 0, 0] });
  }
  const pdf = printer.createPdfKitDocument(doc);
  const chunks = [];
  return new Promise((resolve, reject) => {
    pdf.on("data", (c) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    pdf.end();
  });
}

parentPort.on("message", async ({ id, doc, footerText }) => {
  try {
    const bytes = new Uint8Array(await render(doc, footerText));
    parentPort.postMessage({ id, ok: true, pdf: bytes }, [bytes.buffer]);
  } catch (e) {
    parentPort.postMessage({ id, ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});
