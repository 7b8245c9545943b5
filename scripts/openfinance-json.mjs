#!/usr/bin/env node
/**
 * Part of `npm run build`: the openFinance OpenAPI files the project keeps as published
 * (schemas/openfinance/*.yaml) as one JSON file beside the compiled /v2 document's builder
 * (dist/src/api/v2/openfinance-files.json, name → document), so the bank reads them at run time
 * without a YAML parser (yaml is a development dependency). A file added there is taken as is.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FOLDER = join(ROOT, "schemas", "openfinance");
const files = Object.fromEntries(readdirSync(FOLDER).filter((name) => name.endsWith(".yaml")).sort()
  .map((name) => [name, parse(readFileSync(join(FOLDER, name), "utf8"))]));
writeFileSync(join(ROOT, "dist", "src", "api", "v2", "openfinance-files.json"), JSON.stringify(files));
