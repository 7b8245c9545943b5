/**
 * Tidy checks over src/**\/*.ts (architecture.md 6.3 and 6.7), after TigerBeetle's src/tidy.zig:
 * the dependency rules between layers, who may import api/, sca/ and app.ts, and no `any`.
 * Sources are parsed with the TypeScript compiler, so comments and strings never count.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    assert.notEqual(parent, dir, "package.json not found above the test");
    dir = parent;
  }
  return dir;
}

const ROOT = repoRoot();
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const LAYERS = [
  "main", "app", "admin", "cli", "demo-tpp", "config", "api", "sca", "domain", "ledger", "tpp", "store", "lib",
] as const;
type Layer = (typeof LAYERS)[number];

interface Rule { value: readonly Layer[]; typeOnly: readonly Layer[]; packages: readonly string[] }

const dependencies = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as
    { dependencies?: Record<string, string> }).dependencies ?? {},
);

/**
 * architecture.md 6.3. A layer may always import itself and node: builtins. main.ts is the CLI
 * and its entry in 6.3 reads "app, config"; it is allowed the layers it needs today (seeding,
 * tpp-cert), and nothing else.
 */
const RULES: Record<Layer, Rule> = {
  main: { value: ["app", "cli", "demo-tpp", "config", "ledger", "lib", "sca", "store", "tpp"], typeOnly: [],
    packages: [] },
  app: { value: LAYERS.filter((l) => l !== "main"), typeOnly: [], packages: dependencies },
  admin: { value: ["lib"], typeOnly: ["store"], packages: ["fastify"] },
  config: { value: ["lib"], typeOnly: [], packages: [] },
  "demo-tpp": { value: ["lib"], typeOnly: [], packages: ["fastify"] },
  cli: { value: ["admin", "config", "domain", "lib"], typeOnly: [], packages: ["qrcode-terminal"] },
  api: { value: ["domain", "tpp", "lib"], typeOnly: [], packages: ["fastify"] },
  sca: { value: ["domain", "lib"], typeOnly: [], packages: ["fastify", "jose", "@node-rs/argon2"] },
  domain: { value: ["lib"], typeOnly: ["store"], packages: [] },
  ledger: { value: ["store", "lib"], typeOnly: ["domain"], packages: [] },
  tpp: { value: ["lib"], typeOnly: [], packages: ["@peculiar/x509", "asn1js", "reflect-metadata"] },
  store: { value: ["lib"], typeOnly: ["domain"], packages: ["kysely", "better-sqlite3", "pg"] },
  lib: { value: [], typeOnly: [], packages: [] },
};

/** src/main.ts → main, src/app.ts → app, src/domain/x.ts → domain. */
function layerOf(file: string): Layer | undefined {
  const [first = "", ...rest] = relative(SRC, file).split(/[\\/]/);
  const name = rest.length === 0 ? first.replace(/\.ts$/, "") : first;
  return LAYERS.find((l) => l === name);
}

interface Import { specifier: string; typeOnly: boolean; line: number }

function allTypeOnly(elements: readonly { isTypeOnly: boolean }[]): boolean {
  return elements.length > 0 && elements.every((e) => e.isTypeOnly);
}

/** Static imports, re-exports and dynamic import() calls, each marked type-only or not. */
function importsOf(source: ts.SourceFile): Import[] {
  const found: Import[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier: specifier.text, typeOnly, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined
        && named !== undefined && ts.isNamedImports(named) && allTypeOnly(named.elements)));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const typeOnly = node.isTypeOnly
        || (clause !== undefined && ts.isNamedExports(clause) && allTypeOnly(clause.elements));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** Every import of `file` that its layer's rule does not allow, as "file:line: why". */
function importViolations(file: string, text: string): string[] {
  const layer = layerOf(file);
  const where = relative(ROOT, file);
  if (!layer) return [`${where}: not in any layer of architecture.md 6.3`];
  const rule = RULES[layer];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return importsOf(source).flatMap(({ specifier, typeOnly, line }): string[] => {
    const at = `${where}:${line}: ${typeOnly ? "import type" : "import"} "${specifier}"`;
    if (specifier.startsWith("node:")) return [];
    if (!specifier.startsWith(".")) {
      return rule.packages.includes(packageName(specifier)) ? [] : [`${at}: package not allowed`];
    }
    const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
    const targetLayer = relative(SRC, target).startsWith("..") ? undefined : layerOf(target);
    if (!targetLayer) return [`${at}: outside src/ layers`];
    if (targetLayer === layer || rule.value.includes(targetLayer)) return [];
    if (typeOnly && rule.typeOnly.includes(targetLayer)) return [];
    return [`${at}: ${layer} → ${targetLayer} is not allowed`];
  });
}

/** Every use of the `any` type in `text`, as "file:line". */
function anyUses(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${relative(ROOT, file)}:${line}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const FILES = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

describe("tidy", () => {
  test("finds the source files of every layer", () => {
    const layers = new Set(FILES.map((f) => layerOf(f.path)));
    for (const layer of LAYERS) assert.ok(layers.has(layer), `no files in layer ${layer}`);
  });

  test("every import in src/ follows the dependency rules of architecture.md 6.3", () => {
    const violations = FILES.flatMap((f) => importViolations(f.path, f.text));
    assert.deepEqual(violations, []);
  });

  test("nothing but app.ts and main.ts imports api/, sca/ or app.ts", () => {
    const entry = new Set(["app", "main"]);
    const violations = FILES.flatMap((f) => {
      const layer = layerOf(f.path);
      if (layer === undefined || entry.has(layer)) return [];
      const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
      return importsOf(source).filter((i) => i.specifier.startsWith(".")).flatMap((i) => {
        const target = layerOf(resolve(dirname(f.path), i.specifier).replace(/\.js$/, ".ts"));
        const closed = target === "api" || target === "sca" || target === "app";
        if (!closed || target === layer) return [];
        return [`${relative(ROOT, f.path)}:${i.line} → ${target}`];
      });
    });
    assert.deepEqual(violations, []);
  });

  test("no file in src/ uses the type any", () => {
    assert.deepEqual(FILES.flatMap((f) => anyUses(f.path, f.text)), []);
  });
});

describe("the tidy checks themselves", () => {
  const domainFile = join(SRC, "domain", "example.ts");

  test("allow import type from store in domain/ but refuse a value import", () => {
    assert.deepEqual(importViolations(domainFile, [
      `import type { Tx } from "../store/db.js";`,
      `import { type Store, type Engine } from "../store/db.js";`,
      `import { addDays } from "../lib/clock.js";`,
      `import { randomInt } from "node:crypto";`,
    ].join("\n")), []);
    const refused = importViolations(domainFile, `import { openStore } from "../store/db.js";`);
    assert.equal(refused.length, 1);
    assert.match(refused[0] ?? "", /domain → store is not allowed/);
  });

  test("refuse packages, dynamic imports and re-exports outside the rules", () => {
    const refused = importViolations(domainFile, [
      `import Fastify from "fastify";`,
      `const ledger = await import("../ledger/core.js");`,
      `export { createEmbeddedLedger } from "../ledger/core.js";`,
      `import "../api/plugin.js";`,
    ].join("\n"));
    assert.equal(refused.length, 4, refused.join("\n"));
  });

  test("find any in type positions but not in comments or strings", () => {
    const text = [
      `// any comment`, `const s = "any string";`, `let a: any;`, `const b = [] as any[];`,
      `function f<T = any>(x: Record<string, any>): void {}`,
    ].join("\n");
    assert.deepEqual(anyUses(domainFile, text).map((w) => w.split(":").at(-1)),
      ["3", "4", "5", "5"]);
  });
});
