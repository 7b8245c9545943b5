/**
 * A YAML file's content, parsed once per version of the file for all the suite's processes: the
 * OpenAPI files the exchanges are checked against (1.3 MB of openFinance, 0.5 MB of Berlin Group)
 * took a process a second to parse on a slow machine, 86 s of busy main threads over a profiled
 * run of npm test, where reading the same content as JSON takes milliseconds. Kept in the system's
 * temporary directory, named after the file's hash, so that a changed file is parsed anew.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";

export function parsedYaml(path: string): unknown {
  const text = readFileSync(path, "utf8");
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const cached = join(tmpdir(), `psd2-bank-yaml-${hash}.json`);
  try {
    return JSON.parse(readFileSync(cached, "utf8"));
  } catch {
    const content: unknown = parse(text);
    // Written whole under another name first: a process reading it never sees half of it.
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(content));
    renameSync(partial, cached);
    return content;
  }
}
