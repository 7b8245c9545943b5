/**
 * XSD validation of ISO 20022 documents with libxml2 compiled to WebAssembly (xmllint-wasm):
 * the schemas under schemas/iso20022 (see SOURCE.txt there), no native binding. It runs inside a
 * document reader's worker (reader-worker.ts): the module is compiled once per worker and each
 * document gets a fresh instance with a fixed memory ceiling, keeping only its first errors.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const DIRECTORY = new URL("../../../../schemas/iso20022/", import.meta.url);
const PREFIX = "urn:iso:std:iso:20022:tech:xsd:";

export const PAIN_001_VERSIONS = ["pain.001.001.03", "pain.001.001.09"] as const;
export type Pain001Version = (typeof PAIN_001_VERSIONS)[number];

/** libxml2 goes on reporting after the first error; only these few are kept, the rest dropped. */
const ERRORS_KEPT = 5;
/** 64 KiB pages: 16 MiB to start, 32 MiB at most (xmllint-wasm's own default ceiling). */
const MEMORY = { initial: 256, maximum: 512 };

/** The part of the WebAssembly global used here (this project's TypeScript lib has no DOM). */
interface Wasm {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
  Memory: new (pages: { initial: number; maximum: number }) => object;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

interface XmllintRun {
  inputFiles: { fileName: string; contents: string }[];
  arguments: string[];
  wasmMemory: object;
  print(text: string): void;
  printErr(text: string): void;
  onExit(code: number): void;
  onAbort(reason: unknown): void;
  instantiateWasm(imports: object, done: (instance: object) => void): object;
}

type Xmllint = (run: XmllintRun) => Promise<unknown>;

// The package's Emscripten factory (CommonJS): the package's own entry point would start a
// worker thread per document, which is the cost this module exists to bound. Loaded on first
// use, inside a reader's worker: loading it registers a listener on the worker's parent port.
const require = createRequire(import.meta.url);
let xmllint: { run: Xmllint; module: Promise<object> } | undefined;

function loadXmllint() {
  xmllint ??= { run: require("xmllint-wasm/xmllint-node.js") as Xmllint,
    module: wasm.compile(readFileSync(require.resolve("xmllint-wasm/xmllint.wasm"))) };
  return xmllint;
}

const loaded = new Map<string, string>();

function schemaText(message: string): string {
  let text = loaded.get(message);
  if (text === undefined) {
    text = readFileSync(new URL(`${message}.xsd`, DIRECTORY), "utf8");
    loaded.set(message, text);
  }
  return text;
}

/** The message (e.g. "pain.001.001.09") a namespace names, when it is one of `known`. */
export function messageOf<T extends string>(
  namespace: string | undefined, known: readonly T[],
): T | undefined {
  return known.find((message) => namespace === PREFIX + message);
}

/** xmllint's exit status and its first error lines for one document. */
async function runXmllint(
  text: string, message: string,
): Promise<{ code: number; errors: string[] }> {
  const { run, module: compiled } = loadXmllint();
  const module = await compiled;
  const errors: string[] = [];
  return new Promise((resolve) => {
    void run({
      inputFiles: [{ fileName: "document.xml", contents: text },
        { fileName: "schema.xsd", contents: schemaText(message) }],
      arguments: ["--noout", "--nonet", "--schema", "schema.xsd", "document.xml"],
      wasmMemory: new wasm.Memory(MEMORY),
      print: () => undefined,
      printErr: (line) => { if (errors.length < ERRORS_KEPT) errors.push(line); },
      onExit: (code) => resolve({ code, errors }),
      onAbort: (reason) => resolve({ code: -1,
        errors: [`the validator stopped (${String(reason)})`] }),
      instantiateWasm: (imports, done) => {
        void wasm.instantiate(module, imports).then(done);
        return {};
      },
    }).catch((error: unknown) => resolve({ code: -1, errors: [String(error)] }));
  });
}

/** "document.xml:12: Schemas validity error : ..." → "line 12: Schemas validity error : ...". */
function located(line: string): string {
  const [, number, rest] = /^document\.xml:(\d+):\s*(.*)$/.exec(line) ?? [];
  return number === undefined ? line.trim() : `line ${number}: ${(rest ?? "").trim()}`;
}

/** The first schema violation of a document as "line N: text", or null when it is valid. */
export async function schemaViolation(text: string, message: string): Promise<string | null> {
  const { code, errors } = await runXmllint(text, message);
  if (code === 0) return null;
  const [first] = errors.filter((line) => !line.endsWith(" validates"));
  return first === undefined ? "invalid" : located(first);
}
