/**
 * A fixed pool of document readers (worker threads, XML_READERS) that parse and validate XML
 * bodies, with a bounded queue (XML_QUEUE_MAX; beyond it 429) and a time limit per document
 * (XML_READ_TIMEOUT_MS; beyond it the worker is replaced and the document refused). Each worker
 * has a heap ceiling and the validator a memory ceiling of its own, so the memory all XML bodies
 * can take is bounded whatever they hold, and the event loop only counts and hands over bytes.
 */
import { Worker } from "node:worker_threads";
import { formatError, xmlReadersBusy } from "../../domain/kernel/errors.js";
import type { DocumentAnswer, ReadDocument } from "./document.js";

export interface XmlReaderLimits {
  readers: number;
  queueMax: number;
  timeoutMs: number;
}

export interface XmlReaders {
  /** The body read; throws 400 for a body that is not a document this bank reads, 429 when busy. */
  read(bytes: Buffer): Promise<ReadDocument>;
  close(): Promise<void>;
}

interface Job { bytes: Buffer; settle(answer: DocumentAnswer): void }

const WORKER = new URL("./reader-worker.js", import.meta.url);
/** A worker's own heap: the largest tree a 1 MiB body makes fits several times over. */
const HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

function refusal(answer: DocumentAnswer): ReadDocument {
  if ("read" in answer) return answer.read;
  throw formatError("body", "body", answer.refused);
}

export function createXmlReaders(limits: XmlReaderLimits): XmlReaders {
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const queue: Job[] = [];

  const spawn = (): Worker => {
    const worker = new Worker(WORKER, { resourceLimits: HEAP });
    // A worker that dies between documents is replaced once its next document times out.
    worker.on("error", () => undefined).unref();
    all.add(worker);
    return worker;
  };
  let closed = false;
  const release = (worker: Worker) => {
    const next = queue.shift();
    if (next) run(worker, next);
    else idle.push(worker);
  };
  // A worker that timed out or failed is replaced: its state is unknown, its memory maybe spent.
  const replace = (worker: Worker) => {
    all.delete(worker);
    void worker.terminate();
    if (!closed) release(spawn());
  };

  function run(worker: Worker, job: Job): void {
    const answered = (answer: DocumentAnswer) => finish(answer, true);
    const failed = () => finish({ refused: "The document could not be read within the bank's "
      + "limits; send a smaller or simpler one." }, false);
    const finish = (answer: DocumentAnswer, healthy: boolean) => {
      clearTimeout(timer);
      worker.off("message", answered).off("error", failed);
      job.settle(answer);
      (healthy ? release : replace)(worker);
    };
    const timer = setTimeout(() => finish({ refused: `The document could not be read within `
      + `${limits.timeoutMs} ms; send a smaller or simpler one.` }, false), limits.timeoutMs);
    worker.once("message", answered).once("error", failed);
    worker.postMessage(job.bytes);
  }

  return {
    read(bytes) {
      return new Promise<DocumentAnswer>((settle) => {
        const worker = idle.pop() ?? (all.size < limits.readers ? spawn() : undefined);
        if (worker) run(worker, { bytes, settle });
        else if (queue.length < limits.queueMax) queue.push({ bytes, settle });
        else throw xmlReadersBusy();
      }).then(refusal);
    },
    async close() {
      closed = true;
      queue.length = 0;
      idle.length = 0;
      await Promise.all([...all].map((worker) => worker.terminate()));
      all.clear();
    },
  };
}
