/**
 * The openFinance OpenAPI files under schemas/openfinance/ are the /v2 interface's contract and
 * must stay unmodified copies: each one's character count and sha256 equal what its SOURCE.txt
 * notes for the original, and every copy there is noted.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

const FOLDER = fileURLToPath(new URL("../../schemas/openfinance/", import.meta.url));

interface Noted { file: string; characters: number; sha256: string }

function notes(): Noted[] {
  const source = readFileSync(join(FOLDER, "SOURCE.txt"), "utf8");
  return [...source.matchAll(/^(\S+\.yaml)\s+(\d+)\s+([0-9a-f]{64})$/gm)]
    .map(([, file, characters, sha256]) =>
      ({ file: file!, characters: Number(characters), sha256: sha256! }));
}

test("every openFinance copy is noted in SOURCE.txt, with the Berlin Group's licence", () => {
  const copies = readdirSync(FOLDER).filter((name) => name.endsWith(".yaml")).sort();
  assert.deepEqual(notes().map((n) => n.file).sort(), copies);
  assert.ok(copies.length >= 2);
  const source = readFileSync(join(FOLDER, "SOURCE.txt"), "utf8");
  assert.match(source, /Creative Commons Attribution\s+4\.0/);
});

test("each openFinance copy has the original's character count and hash", () => {
  for (const { file, characters, sha256 } of notes()) {
    const bytes = readFileSync(join(FOLDER, file));
    assert.equal([...bytes.toString("utf8")].length, characters, `${file}: characters`);
    assert.equal(createHash("sha256").update(bytes).digest("hex"), sha256, `${file}: sha256`);
    assert.match(bytes.toString("utf8"), /name: Creative Commons Attribution 4\.0/, file);
  }
});
