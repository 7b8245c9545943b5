/**
 * Writes the TypeScript types of a psd2-bank OpenAPI document (GET /psd2/v1/openapi.json, per
 * API_PROFILE) for client/index.ts: `node dist/client/generate.js <openapi.json> <out.ts>`.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { argv } from "node:process";
import openapiTS, { astToString } from "openapi-typescript";

/** The types module for one document: `paths`, `components`, `operations`. */
export async function generateTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0]);
  return `/* Generated from the bank's OpenAPI document by client/generate.ts; do not edit. */\n${astToString(ast)}`;
}

if (import.meta.url === `file://${argv[1]}`) {
  const [input, output] = argv.slice(2);
  if (!input || !output) throw new Error("usage: generate.js <openapi.json> <out.ts>");
  // The guide's output, client/generated/, is ignored by git, so a fresh clone lacks it.
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, await generateTypes(JSON.parse(await readFile(input, "utf8")) as object));
}
