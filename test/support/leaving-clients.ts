/** TPPs that leave before the answer, as a load generator does when it stops. */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { connect } from "node:tls";
import { CREATION_HEADERS, paymentBody } from "./flows.js";
import type { TestBank } from "./start-app.js";

/**
 * Payment initiations, each whole on its own connection, which the client closes at once: many
 * reach the bank before their bodies are read, others while they are being created. Answers
 * their X-Request-IDs once the bank has closed each connection too.
 */
export async function initiateAndLeave(bank: TestBank, count: number): Promise<string[]> {
  const url = new URL(bank.apiUrl);
  const [cert, key] = await Promise.all([readFile(bank.certs.tppCert), readFile(bank.certs.tppKey)]);
  const body = JSON.stringify(paymentBody());
  const head = Object.entries({ ...CREATION_HEADERS, "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)) }).map(([name, value]) => `${name}: ${value}`);
  const ids = Array.from({ length: count }, () => randomUUID());
  await Promise.all(ids.map((id) => new Promise<void>((resolve) => {
    const request = ["POST /psd2/v1/payments/sepa-credit-transfers HTTP/1.1", "Host: localhost",
      `X-Request-ID: ${id}`, ...head, "", body].join("\r\n");
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: bank.ca, cert, key,
      servername: "localhost" }, () => socket.end(request));
    socket.resume();
    // Closed once the bank has seen the client's end and closed its side.
    socket.on("close", () => resolve());
    socket.on("error", () => undefined);
  })));
  return ids;
}
