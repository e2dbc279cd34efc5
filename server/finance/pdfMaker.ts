/**
 * PDFs made off the main thread (issue 32 item 3b): pdfmake lays text out synchronously, and a payment
 * advice with long notes held the whole server, /healthz included, for seconds. Documents go to a small
 * pool of worker threads (pdfWorker.mjs) and each has a time limit from the moment it is asked for: one
 * not made by then is answered with PdfTimeoutError (503), and the worker on it is ended and replaced.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { TDocumentDefinitions } from "pdfmake/interfaces";

/** A pdfmake document as it can cross to a thread: no functions; the footer is its text. */
export interface PdfDocument {
  doc: Omit<TDocumentDefinitions, "footer">;
  /** Printed at the foot of every page as "<footerText> · page N of M". */
  footerText?: string;
}

export interface PdfMaker {
  /** The bytes of the PDF; PdfTimeoutError when it is not made within the time limit. */
  render(document: PdfDocument): Promise<Buffer>;
  /** Ends the workers; documents not yet made fail. */
  close(): Promise<void>;
}

export interface PdfMakerOptions {
  /** From the moment a document is asked for, waiting for a free worker included. */
  timeLimitMs: number;
  /** Worker threads at most (each may hold a CPU core while it lays out a document). */
  workers: number;
}

export class PdfTimeoutError extends Error {
  readonly statusCode = 503;
  constructor(ms: number) {
    super(`The PDF could not be made within ${ms / 1000} s and was stopped. Try again later; if it keeps failing, shorten the document's notes.`);
    this.name = "PdfTimeoutError";
  }
}

// a path, not a URL object: under a jsdom test environment URL is jsdom's, which Worker does not take
const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "pdfWorker.mjs");
/** A document so big that laying it out needs more than this ends its worker, not the server. */
const WORKER_HEAP_MB = 512;

interface Job {
  id: number;
  document: PdfDocument;
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

type Answer = { id: number; ok: true; pdf: Uint8Array } | { id: number; ok: false; message: string };

export function createPdfMaker({ timeLimitMs, workers }: PdfMakerOptions): PdfMaker {
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  let alive = 0;
  let nextId = 1;
  let closed = false;

  /** A worker that ended (terminated, crashed, out of memory) is forgotten; its document fails. */
  const retire = (worker: Worker, error: Error) => {
    const job = busy.get(worker);
    busy.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    alive--;
    if (job) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    dispatch();
  };

  const spawn = (): Worker => {
    const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    alive++;
    let ended = false;
    const end = (error: Error) => {
      if (ended) return;
      ended = true;
      retire(worker, error);
    };
    worker.on("message", (answer: Answer) => {
      const job = busy.get(worker);
      if (!job || job.id !== answer.id) return;
      busy.delete(worker);
      clearTimeout(job.timer);
      if (answer.ok) job.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
      else job.reject(new Error(`The PDF could not be made: ${answer.message}`));
      // an idle worker does not keep the process alive
      worker.unref();
      idle.push(worker);
      dispatch();
    });
    worker.on("error", (e) => end(e));
    worker.on("exit", (code) => end(new Error(`The PDF worker stopped (exit code ${code}).`)));
    return worker;
  };

  const dispatch = () => {
    while (!closed && queue.length && (idle.length || alive < workers)) {
      const job = queue.shift()!;
      const worker = idle.pop() ?? spawn();
      worker.ref();
      busy.set(worker, job);
      worker.postMessage({ id: job.id, doc: job.document.doc, footerText: job.document.footerText });
    }
  };

  const expire = (job: Job) => {
    const waiting = queue.indexOf(job);
    if (waiting >= 0) queue.splice(waiting, 1);
    for (const [worker, j] of busy) {
      if (j !== job) continue;
      // pdfmake cannot be interrupted: the thread is ended (retire answers nothing more for it)
      busy.delete(worker);
      void worker.terminate();
    }
    job.reject(new PdfTimeoutError(timeLimitMs));
  };

  return {
    render(document) {
      if (closed) return Promise.reject(new Error("The PDF maker is closed."));
      return new Promise<Buffer>((resolve, reject) => {
        const job: Job = { id: nextId++, document, resolve, reject, timer: setTimeout(() => expire(job), timeLimitMs) };
        queue.push(job);
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) {
        clearTimeout(job.timer);
        job.reject(new Error("The server is stopping."));
      }
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}
