/**
 * The request head's size limit (HEADER_LIMIT_BYTES): beyond it, and for bytes that are not
 * HTTP at all, the TPP still gets a Berlin Group error, never Node's bare answer.
 */
import assert from "node:assert/strict";
import { connect } from "node:tls";
import { after, before, test } from "node:test";
import { startBank, type TestBank } from "../support/start-app.js";

let bank: TestBank;
let tight: TestBank;
before(async () => {
  bank = await startBank();
  tight = await startBank({ sharing: bank, env: { HEADER_LIMIT_BYTES: "8192" } });
});
after(async () => {
  await tight.close();
  await bank.close();
});

const STATUS = "/psd2/v1/payments/sepa-credit-transfers/00000000000000000000000000000000/status";

test("headers over the limit are 431 with a FORMAT_ERROR tppMessage; under it they are read", async () => {
  const padded = { "X-Pad": "x".repeat(10_000) };
  const under = await bank.tpp.get(STATUS, padded);
  assert.equal(under.status, 404, under.text);
  const over = await tight.tpp.get(STATUS, padded);
  assert.equal(over.status, 431, over.text);
  assert.equal(over.body.tppMessages[0].code, "FORMAT_ERROR", over.text);
  const huge = await bank.tpp.get(STATUS, { "X-Pad": "x".repeat(20_000) });
  assert.equal(huge.status, 431, huge.text);
});

test("bytes that are not HTTP get a 400 FORMAT_ERROR in JSON before the connection closes", async () => {
  const url = new URL(bank.apiUrl);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: bank.ca, servername: "localhost" }, () => {
      socket.write("NOT HTTP AT ALL\r\n\r\n");
    });
    let text = "";
    socket.on("data", (chunk: Buffer) => { text += chunk.toString("utf8"); });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /"code":"FORMAT_ERROR"/);
});
