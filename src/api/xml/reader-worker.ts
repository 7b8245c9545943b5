/** A document reader's thread: one body at a time, answered in the order received. */
import { parentPort } from "node:worker_threads";
import { readDocument } from "./document.js";

parentPort?.on("message", (bytes: Uint8Array) => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  void readDocument(text).then((answer) => parentPort?.postMessage(answer));
});
