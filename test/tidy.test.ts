/**
 * Tidy checks over src/**\/*.ts (docs/architecture.md), after TigerBeetle's src/tidy.zig: the
 * dependency rules between layers, who may import api/, sca/ and app/, no import cycles, no
 * `any`, refusals built only in the error catalog, periodic work only through the scheduler, and
 * the length limits of functions and lines; inside domain/, no cycle between folders, and sca/
 * knows none of the resources it authorises.
 * Sources are parsed with the TypeScript compiler, so comments and strings never count.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { BASKET_CREATION, BASKET_TRANSITIONS } from "../src/domain/basket/transitions.js";
import { CONSENT_CREATION, CONSENT_TRANSITIONS } from "../src/domain/consent/transitions.js";
import { PAYMENT_CREATION, PAYMENT_TRANSITIONS } from "../src/domain/payment/transitions.js";
import { SCA_TRANSITIONS } from "../src/domain/sca/transitions.js";
import { VOP_BULK_CREATION, VOP_BULK_TRANSITIONS } from "../src/domain/vop/transitions.js";

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
  "main", "app", "admin", "cli", "demo-tpp", "config", "api", "sca", "oauth", "domain", "ledger", "tpp",
  "store", "lib",
] as const;
type Layer = (typeof LAYERS)[number];

interface Rule { value: readonly Layer[]; typeOnly: readonly Layer[]; packages: readonly string[] }

const dependencies = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as
    { dependencies?: Record<string, string> }).dependencies ?? {},
);

/**
 * docs/architecture.md, "Layers". A layer may always import itself and node: builtins. The command
 * line runs main -> cli -> app: main.ts only parses argv and dispatches to cli/, and cli/ reaches
 * the bank through the composition root (app/), never through api/, sca/, ledger/ or store/.
 */
const RULES: Record<Layer, Rule> = {
  main: { value: ["cli", "config", "lib"], typeOnly: [], packages: [] },
  app: {
    value: LAYERS.filter((l) => l !== "main" && l !== "cli"), typeOnly: [], packages: dependencies,
  },
  admin: { value: ["lib"], typeOnly: ["store"], packages: ["fastify"] },
  config: { value: ["lib"], typeOnly: [], packages: [] },
  "demo-tpp": { value: ["lib"], typeOnly: [], packages: ["fastify"] },
  cli: { value: ["app", "admin", "config", "demo-tpp", "domain", "lib", "tpp"], typeOnly: [],
    packages: ["qrcode-terminal"] },
  api: {
    value: ["domain", "tpp", "lib"], typeOnly: [],
    packages: ["fastify", "fast-xml-parser", "xmllint-wasm"],
  },
  sca: { value: ["domain", "lib"], typeOnly: [], packages: ["fastify", "jose"] },
  oauth: { value: ["domain", "lib"], typeOnly: [], packages: ["oidc-provider"] },
  domain: { value: ["lib"], typeOnly: [], packages: [] },
  ledger: { value: ["store", "lib"], typeOnly: ["domain"], packages: [] },
  tpp: { value: ["lib"], typeOnly: [], packages: ["@peculiar/x509", "asn1js", "jose", "reflect-metadata"] },
  store: { value: ["lib"], typeOnly: ["domain"], packages: ["kysely", "better-sqlite3", "pg"] },
  lib: { value: [], typeOnly: [], packages: [] },
};

/** The layers that are one file directly in src/; every other layer is a folder. */
const FILE_LAYERS: readonly Layer[] = ["main", "admin", "config"];

/** src/main.ts → main, src/app/x.ts → app, src/domain/x.ts → domain; src/app.ts → none. */
function layerOf(file: string): Layer | undefined {
  const [first = "", ...rest] = relative(SRC, file).split(/[\\/]/);
  const name = rest.length === 0 ? first.replace(/\.ts$/, "") : first;
  const layer = LAYERS.find((l) => l === name);
  return layer !== undefined && FILE_LAYERS.includes(layer) === (rest.length === 0)
    ? layer : undefined;
}

/** An import; `lazy` for an import() call, which loads its module only when it runs. */
interface Import { specifier: string; typeOnly: boolean; line: number; lazy: boolean }

function allTypeOnly(elements: readonly { isTypeOnly: boolean }[]): boolean {
  return elements.length > 0 && elements.every((e) => e.isTypeOnly);
}

/** Static imports, re-exports and dynamic import() calls, each marked type-only or not. */
function importsOf(source: ts.SourceFile): Import[] {
  const found: Import[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const lazy = ts.isCallExpression(node);
    found.push({ specifier: specifier.text, typeOnly, line, lazy });
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

/**
 * Each file's imports of other files in src/, type-only ones included: a type shared both ways
 * ties two modules as tightly for a reader as a value does.
 */
function importGraph(files: readonly { path: string; text: string }[]): Map<string, string[]> {
  return new Map(files.map((f) => {
    const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
    const targets = importsOf(source).filter((i) => i.specifier.startsWith("."))
      .map((i) => relative(ROOT, resolve(dirname(f.path), i.specifier).replace(/\.js$/, ".ts")));
    return [relative(ROOT, f.path), [...new Set(targets)]];
  }));
}

/** The import cycles of a graph: its strongly connected components (Tarjan), self-imports too. */
function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    const selfImport = (graph.get(file) ?? []).includes(file);
    if (component.length > 1 || selfImport) cycles.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * The modules an operator's command loads: the command line's own and the parts of app/ that
 * open the store and the administration use cases. A command answers in well under a second
 * only while none of them loads the listeners' layers.
 */
const OPERATOR_ENTRIES = ["main.ts", "app/administration.ts", "app/seeding.ts", "app/store.ts"]
  .map((path) => join("src", path));
const LISTENER_LAYERS: readonly Layer[] = ["api", "sca", "oauth"];

/**
 * The files of the listeners' layers that the entries load, following the imports that load a
 * module when their file loads (no type-only ones, no import() calls), as "entry → file".
 */
function listenerLayersLoaded(
  files: readonly { path: string; text: string }[], entries: readonly string[],
): string[] {
  const loads = new Map(files.map((f) => {
    const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
    const targets = importsOf(source).filter((i) => i.specifier.startsWith(".") && !i.typeOnly
      && !i.lazy).map((i) => resolve(dirname(f.path), i.specifier).replace(/\.js$/, ".ts"));
    return [f.path, targets];
  }));
  return entries.flatMap((entry) => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const next of loads.get(file) ?? []) visit(next);
    };
    visit(join(ROOT, entry));
    return [...seen].filter((file) => LISTENER_LAYERS.includes(layerOf(file) ?? "lib"))
      .map((file) => `${entry} → ${relative(ROOT, file)}`);
  });
}

const DOMAIN = join(SRC, "domain");

/**
 * The folder of domain/ a file is in (src/domain/payment/x.ts → payment); none for a file
 * directly in domain/, which the folder rules leave out.
 */
function domainFolderOf(file: string): string | undefined {
  const [first, ...rest] = relative(DOMAIN, file).split(/[\\/]/);
  return first !== undefined && first !== ".." && rest.length > 0 ? first : undefined;
}

/** Which folders of domain/ each folder imports, type-only imports included. */
function folderGraph(files: readonly { path: string; text: string }[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph(files)) {
    const from = domainFolderOf(join(ROOT, file));
    if (from === undefined) continue;
    const to = graph.get(from) ?? new Set<string>();
    for (const target of targets) {
      const folder = domainFolderOf(join(ROOT, target));
      if (folder !== undefined && folder !== from) to.add(folder);
    }
    graph.set(from, to);
  }
  return new Map([...graph].map(([folder, to]) => [folder, [...to].sort()]));
}

/**
 * The resources a PSU authorises: sca/ drives them as subjects (sca/subject.ts) and imports none
 * of them; they are registered where the app is composed.
 */
const RESOURCE_FOLDERS = ["payment", "consent", "basket"];

/** Imports of a resource folder by a file in domain/sca/, as "file:line → folder". */
function resourceImportsOfSca(file: string, text: string): string[] {
  if (domainFolderOf(file) !== "sca") return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return importsOf(source).filter((i) => i.specifier.startsWith(".")).flatMap((i) => {
    const folder = domainFolderOf(resolve(dirname(file), i.specifier));
    return folder !== undefined && RESOURCE_FOLDERS.includes(folder)
      ? [`${relative(ROOT, file)}:${i.line} → ${folder}`] : [];
  });
}

const FUNCTION_LINES_MAX = 70;
const LINE_COLUMNS_MAX = 100;

/** Functions of more than FUNCTION_LINES_MAX lines, as "file:line: name (n lines)". */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const [first, last] = [lineOf(node.getStart(source)), lineOf(node.getEnd())];
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : "(anonymous)";
      if (last - first + 1 > FUNCTION_LINES_MAX) {
        found.push(`${relative(ROOT, file)}:${first}: ${name} (${last - first + 1} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Lines longer than LINE_COLUMNS_MAX, as "file:line". */
function longLines(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) =>
    [...line].length > LINE_COLUMNS_MAX ? [`${relative(ROOT, file)}:${i + 1}`] : []);
}

/** The nodes of a file that `match`, as "file:line", or "file:line: text" with `withText`. */
function nodesWhere(
  file: string, text: string, match: (node: ts.Node) => boolean, withText = false,
): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (match(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${relative(ROOT, file)}:${line}${withText ? `: ${node.getText(source)}` : ""}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `new Xs2aError(...)` outside the catalog, as "file:line". */
function refusalsOutsideCatalog(file: string, text: string): string[] {
  if (relative(SRC, file) === join("domain", "kernel", "errors.ts")) return [];
  return nodesWhere(file, text, (node) => ts.isNewExpression(node)
    && ts.isIdentifier(node.expression) && node.expression.text === "Xs2aError");
}

/** `setInterval(...)` outside the scheduler, as "file:line": every periodic job runs through it. */
function intervalsOutsideScheduler(file: string, text: string): string[] {
  if (relative(SRC, file) === join("domain", "kernel", "scheduler.ts")) return [];
  return nodesWhere(file, text, (node) => {
    const callee = ts.isCallExpression(node) ? node.expression : undefined;
    const name = callee && ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    return name !== undefined && ts.isIdentifier(name) && name.text === "setInterval";
  });
}

/**
 * The lifecycles, by folder of domain/: the store's repository of the folder's resource, its port
 * methods that write the status (compare-and-set), and every status its table names.
 */
const LIFECYCLES: Readonly<Record<string, { repository: string; writes: readonly string[];
  rows: readonly Record<string, { from: readonly string[]; to: string }>[] }>> = {
  payment: { repository: "payments", writes: ["transition", "transitionEntries",
    "advanceStandingOrder"], rows: [PAYMENT_TRANSITIONS, PAYMENT_CREATION] },
  consent: { repository: "consents", writes: ["transition", "transitionWhere",
    "transitionOtherRecurring"], rows: [CONSENT_TRANSITIONS, CONSENT_CREATION] },
  basket: { repository: "baskets", writes: ["transition"],
    rows: [BASKET_TRANSITIONS, BASKET_CREATION] },
  sca: { repository: "sca", writes: ["setScaStatus", "setScaStatusOf"], rows: [SCA_TRANSITIONS] },
  vop: { repository: "vopBulks", writes: ["transition"],
    rows: [VOP_BULK_TRANSITIONS, VOP_BULK_CREATION] },
};

const STATUS_FIELDS = ["status", "transactionStatus", "consentStatus", "scaStatus"];

function statusesOf(folder: string): Set<string> {
  const rows = (LIFECYCLES[folder]?.rows ?? []).flatMap((table) => Object.values(table));
  return new Set(rows.flatMap((row) => [...row.from, row.to]));
}

/**
 * Writes of a lifecycle's status outside its folder's transitions.ts, as "file:line: write": a
 * call of a status-writing port method (`store.payments.transition(...)`), or a status the
 * table names given as a literal (`status: "RCVD"`) in its folder, where a "create" row names it.
 */
function statusWritesOutsideTransitions(file: string, text: string): string[] {
  const where = relative(SRC, file).split(/[\\/]/);
  const own = where[0] === "domain" && where.length > 2 ? where[1] : undefined;
  const inTransitions = where.at(-1) === "transitions.ts";
  const statuses = own !== undefined ? statusesOf(own) : new Set<string>();
  return nodesWhere(file, text, (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)
      && ts.isPropertyAccessExpression(node.expression.expression)) {
      const method = node.expression.name.text;
      const repository = node.expression.expression.name.text;
      const [folder] = Object.entries(LIFECYCLES).find(([, l]) => l.repository === repository
        && l.writes.includes(method)) ?? [];
      return folder !== undefined && !(inTransitions && folder === own);
    }
    return ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && !inTransitions
      && STATUS_FIELDS.includes(node.name.text) && ts.isStringLiteralLike(node.initializer)
      && statuses.has(node.initializer.text);
  }, true);
}

/** The files that may import from src/: its own, the tests and the generated client's sources. */
const IMPORTERS = [...FILES, ...["test", "client"].flatMap((dir) => sourceFiles(join(ROOT, dir)))
  .map((path) => ({ path, text: readFileSync(path, "utf8") }))];

const isExported = (node: ts.Node) => ts.canHaveModifiers(node)
  && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file declares with `export`, each with the node that names it. */
function exportedDeclarations(source: ts.SourceFile): { name: string; node: ts.Node }[] {
  return source.statements.filter(isExported).flatMap((statement) => {
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.flatMap((d) =>
        ts.isIdentifier(d.name) ? [{ name: d.name.text, node: d.name }] : []);
    }
    const name = (statement as { name?: ts.Node }).name;
    return name !== undefined && ts.isIdentifier(name) ? [{ name: name.text, node: name }] : [];
  });
}

/** By file, the names other files import from it; "*" where they may use any. */
function importedNames(files: readonly { path: string; text: string }[]): Map<string, Set<string>> {
  const imported = new Map<string, Set<string>>();
  const add = (from: string, specifier: string, name: string) => {
    const target = resolve(dirname(from), specifier).replace(/\.js$/, ".ts");
    imported.set(target, (imported.get(target) ?? new Set()).add(name));
  };
  for (const f of files) {
    const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const declaration = ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
        ? node : undefined;
      const specifier = declaration?.moduleSpecifier;
      if (declaration !== undefined && specifier !== undefined && ts.isStringLiteral(specifier)) {
        const clause = ts.isImportDeclaration(declaration)
          ? declaration.importClause?.namedBindings : declaration.exportClause;
        const names = clause !== undefined && (ts.isNamedImports(clause) || ts.isNamedExports(clause))
          ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : ["*"];
        for (const name of names) add(f.path, specifier.text, name);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
        && node.arguments[0] !== undefined && ts.isStringLiteralLike(node.arguments[0])) {
        add(f.path, node.arguments[0].text, "*");
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
        && ts.isStringLiteral(node.argument.literal)) {
        const qualifier = node.qualifier && ts.isIdentifier(node.qualifier)
          ? node.qualifier.text : undefined;
        add(f.path, node.argument.literal.text, qualifier ?? "*");
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return imported;
}

/**
 * Exports no file uses, as "file: name": no other file imports the name, and its own file does
 * not use it either (what only its own file uses is left alone here).
 */
function unusedExports(
  files: readonly { path: string; text: string }[], imported: Map<string, Set<string>>,
): string[] {
  return files.flatMap((f) => {
    const names = imported.get(f.path) ?? new Set<string>();
    if (names.has("*")) return [];
    const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
    const uses = new Map<string, number>();
    const count = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) uses.set(node.text, (uses.get(node.text) ?? 0) + 1);
      ts.forEachChild(node, count);
    };
    count(source);
    return exportedDeclarations(source).filter(({ name }) => !names.has(name)
      && (uses.get(name) ?? 0) <= 1).map(({ name }) => `${relative(ROOT, f.path)}: ${name}`);
  });
}

/** Whether an expression reads through `settings` (`settings.x`, `deps.settings.x?.y`). */
function readsSettings(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === "settings";
  if (ts.isPropertyAccessExpression(node)) {
    return node.name.text === "settings" || readsSettings(node.expression);
  }
  return ts.isParenthesizedExpression(node) && readsSettings(node.expression);
}

/**
 * Defaults given to a setting outside src/config.ts, as "file:line: text": `settings.x ?? 15`
 * (or `?? A_CONSTANT`) in domain/, which receives every setting from the config.
 */
function settingDefaultsOutsideConfig(file: string, text: string): string[] {
  if (!relative(SRC, file).startsWith(`domain${sep}`)) return [];
  return nodesWhere(file, text, (node) => ts.isBinaryExpression(node) && readsSettings(node.left)
    && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken, true);
}

describe("tidy", () => {
  test("finds the source files of every layer", () => {
    const layers = new Set(FILES.map((f) => layerOf(f.path)));
    for (const layer of LAYERS) assert.ok(layers.has(layer), `no files in layer ${layer}`);
  });

  test("every import in src/ follows the dependency rules of docs/architecture.md", () => {
    const violations = FILES.flatMap((f) => importViolations(f.path, f.text));
    assert.deepEqual(violations, []);
  });

  test("api/, sca/ and oauth/ are imported by app/ only, and app/ by cli/ only", () => {
    const importers: Partial<Record<Layer, Layer>> = {
      api: "app", sca: "app", oauth: "app", app: "cli",
    };
    const violations = FILES.flatMap((f) => {
      const layer = layerOf(f.path);
      const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
      return importsOf(source).filter((i) => i.specifier.startsWith(".")).flatMap((i) => {
        const target = layerOf(resolve(dirname(f.path), i.specifier).replace(/\.js$/, ".ts"));
        const allowed = target === undefined ? undefined : importers[target];
        if (allowed === undefined || target === layer || layer === allowed) return [];
        return [`${relative(ROOT, f.path)}:${i.line} → ${target}`];
      });
    });
    assert.deepEqual(violations, []);
  });

  test("an operator's command loads none of api/, sca/ and oauth/", () => {
    assert.deepEqual(listenerLayersLoaded(FILES, OPERATOR_ENTRIES), []);
  });

  test("no file in src/ uses the type any", () => {
    assert.deepEqual(FILES.flatMap((f) => anyUses(f.path, f.text)), []);
  });

  test("no import cycles anywhere in src/, type-only imports included", () => {
    const cycles = importCycles(importGraph(FILES)).map((files) => files.join(" "));
    assert.deepEqual(cycles, []);
  });

  test("no folder of domain/ imports a folder that imports it back", () => {
    const cycles = importCycles(folderGraph(FILES)).map((folders) => folders.join(" "));
    assert.deepEqual(cycles, []);
  });

  test("domain/sca/ imports none of the resources it authorises", () => {
    assert.deepEqual(FILES.flatMap((f) => resourceImportsOfSca(f.path, f.text)), []);
  });

  test("refusals to TPPs are built only by the catalog's named constructors", () => {
    assert.deepEqual(FILES.flatMap((f) => refusalsOutsideCatalog(f.path, f.text)), []);
  });

  test("only a lifecycle's transitions.ts writes its status; a create row names the first", () => {
    assert.deepEqual(FILES.flatMap((f) => statusWritesOutsideTransitions(f.path, f.text)), []);
  });

  test("no export in src/ that no file uses", () => {
    assert.deepEqual(unusedExports(FILES, importedNames(IMPORTERS)), []);
  });

  test("settings get their defaults in config.ts only, never in domain/", () => {
    assert.deepEqual(FILES.flatMap((f) => settingDefaultsOutsideConfig(f.path, f.text)), []);
  });

  test("periodic work runs only through the scheduler (domain/kernel/scheduler.ts)", () => {
    assert.deepEqual(FILES.flatMap((f) => intervalsOutsideScheduler(f.path, f.text)), []);
  });

  const limits = [
    { over: `functions over ${FUNCTION_LINES_MAX} lines`, find: longFunctions },
    { over: `lines over ${LINE_COLUMNS_MAX} columns`, find: longLines },
  ];
  for (const { over, find } of limits) {
    test(`no ${over} in src/`, () => {
      const found = FILES.flatMap((f) => find(f.path, f.text));
      assert.deepEqual(found, []);
    });
  }
});

describe("the tidy checks themselves", () => {
  const domainFile = join(SRC, "domain", "example.ts");

  test("allow import type from domain in store/ but refuse a value import", () => {
    const storeFile = join(SRC, "store", "example.ts");
    assert.deepEqual(importViolations(storeFile, [
      `import type { Tx } from "../domain/ports.js";`,
      `import { type Payment } from "../domain/payment/model.js";`,
      `import { addDays } from "../lib/clock.js";`,
    ].join("\n")), []);
    const refused = importViolations(storeFile, `import { movePayment } from "../domain/x.js";`);
    assert.equal(refused.length, 1);
    assert.match(refused[0] ?? "", /store → domain is not allowed/);
  });

  test("know the file layers and the folder layers, and no file named as a folder layer", () => {
    const layers = ["main.ts", "app/build-app.ts", "app.ts", "main/x.ts", "domain/kernel/x.ts"]
      .map((path) => layerOf(join(SRC, path)));
    assert.deepEqual(layers, ["main", "app", undefined, undefined, "domain"]);
  });

  test("refuse every import of store in domain/, type-only ones too", () => {
    for (const line of [`import type { Tx } from "../store/db.js";`,
      `import { openStore } from "../store/db.js";`]) {
      const refused = importViolations(domainFile, line);
      assert.equal(refused.length, 1, line);
      assert.match(refused[0] ?? "", /domain → store is not allowed/);
    }
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

  test("find the listeners' layers an entry loads, through imports that load at once", () => {
    const file = (path: string, text: string) => ({ path: join(SRC, path), text });
    const files = [
      file("app/administration.ts", `import { s } from "./store.js";\n`
        + `import type { Api } from "../api/plugin.js";\nconst p = () => import("../sca/p.js");`),
      file("app/store.ts", `import { d } from "../domain/kernel/x.js";`),
      file("domain/kernel/x.ts", `import { l } from "../../lib/l.js";`),
      file("lib/l.ts", ``),
    ];
    const entries = [join("src", "app", "administration.ts")];
    assert.deepEqual(listenerLayersLoaded(files, entries), []);
    files[2] = file("domain/kernel/x.ts", `import { o } from "../../oauth/server.js";`);
    assert.deepEqual(listenerLayersLoaded(files, entries),
      ["src/app/administration.ts → src/oauth/server.ts"]);
  });

  test("find import cycles, type-only imports included, and only those", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts", "d.ts"]], ["d.ts", []],
      ["e.ts", ["e.ts"]], ["f.ts", ["d.ts"]],
    ]);
    assert.deepEqual(importCycles(graph), [["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
    const files = [
      { path: join(SRC, "domain", "x.ts"), text: `import { y } from "./y.js";` },
      { path: join(SRC, "domain", "y.ts"), text: `import { x } from "./x.js";` },
      { path: join(SRC, "domain", "z.ts"), text: `import type { X } from "./x.js";` },
      { path: join(SRC, "domain", "w.ts"), text: `import { z } from "./z.js";` },
    ];
    assert.deepEqual(importCycles(importGraph(files)), [["src/domain/x.ts", "src/domain/y.ts"]]);
    files[2] = { ...files[2]!, text: `${files[2]!.text}\nimport type { W } from "./w.js";` };
    assert.deepEqual(importCycles(importGraph(files)).length, 2);
  });

  test("find cycles between folders of domain/, leaving out its top-level files", () => {
    const file = (path: string, text: string) => ({ path: join(DOMAIN, path), text });
    const files = [
      file("basket/b.ts", `import { p } from "../payment/p.js";`),
      file("payment/p.ts", `import type { S } from "../sca/s.js";\nimport { d } from "../deps.js";`),
      file("sca/s.ts", `import { d } from "../deps.js";`),
      file("deps.ts", `import type { B } from "./basket/b.js";`),
    ];
    assert.deepEqual(importCycles(folderGraph(files)), []);
    files[2] = file("sca/s.ts", `import type { B } from "../basket/b.js";`);
    assert.deepEqual(importCycles(folderGraph(files)), [["basket", "payment", "sca"]]);
  });

  test("refuse an import of a resource folder from domain/sca/, type-only ones too", () => {
    const text = [`import type { Payment } from "../payment/model.js";`,
      `import { loadSubject } from "./subjects.js";`, `import type { Tx } from "../ports.js";`,
      `import { carryOut } from "../basket/carry-out.js";`].join("\n");
    assert.deepEqual(resourceImportsOfSca(join(DOMAIN, "sca", "x.ts"), text)
      .map((w) => w.split(":").at(-1)), ["1 → payment", "4 → basket"]);
    assert.deepEqual(resourceImportsOfSca(join(DOMAIN, "basket", "x.ts"), text), []);
  });

  test("find functions over the limit, nested ones and arrows included, and long lines", () => {
    const body = (n: number) => Array.from({ length: n - 2 }, () => "  step();").join("\n");
    const text = [`function short() {\n${body(70)}\n}`, `const long = () => {\n${body(71)}\n};`]
      .join("\n");
    assert.deepEqual(longFunctions(domainFile, text).map((w) => w.split(": ").at(-1)),
      ["(anonymous) (71 lines)"]);
    const lines = `${"x".repeat(100)}\n${"é".repeat(101)}`;
    assert.deepEqual(longLines(domainFile, lines).map((w) => w.split(":").at(-1)), ["2"]);
  });

  test("find new Xs2aError outside the catalog", () => {
    const text = `throw new Xs2aError("FORMAT_ERROR", "body", "x");\nthrow formatError("b");`;
    const found = refusalsOutsideCatalog(domainFile, text);
    assert.deepEqual(found.map((w) => w.split(":").at(-1)), ["1"]);
  });

  test("find status writes outside the lifecycle's transitions.ts", () => {
    const text = [`await store.payments.transition(tx, id, ["RCVD"], "ACTC", change);`,
      `await deps.store.sca.setScaStatusOf(tx, id, ["received"], "failed", at);`,
      `const payment = { id, status: "RCVD", reason: null };`,
      `const booking = { status: "rejected", reason: "funds" };`,
      `if (payment.status === "RCVD") await store.payments.find(tx, id);`].join("\n");
    const lines = (path: string) => statusWritesOutsideTransitions(
      join(DOMAIN, ...path.split("/")), text).map((w) => w.split(":")[1]);
    assert.deepEqual(lines("payment/initiation.ts"), ["1", "2", "3"]);
    assert.deepEqual(lines("payment/transitions.ts"), ["2"]);
    assert.deepEqual(lines("sca/transitions.ts"), ["1"]);
    assert.deepEqual(lines("kernel/x.ts"), ["1", "2"]);
  });

  test("find exports nobody imports and their own file does not use", () => {
    const files = [
      { path: join(SRC, "lib", "a.ts"), text: [`export function used() {}`,
        `export function local() {}`, `export const dead = 1;`, `export type Dead = string;`,
        `export interface Typed { x: Local }`, `export type Local = number;`,
        `const x = local();`].join("\n") },
      { path: join(SRC, "lib", "b.ts"), text: `import { used, type Typed } from "./a.js";` },
      { path: join(SRC, "lib", "c.ts"), text: `export const all = 1;` },
      { path: join(ROOT, "test", "c.test.ts"), text: `const c = await import("../src/lib/c.js");` },
    ];
    assert.deepEqual(unusedExports(files, importedNames(files)),
      ["src/lib/a.ts: dead", "src/lib/a.ts: Dead"]);
  });

  test("find fallbacks on settings in domain/, whatever the fallback", () => {
    const text = [`const a = settings.bulkPaymentEntriesMax ?? 100;`,
      `const b = deps.settings.exemptions?.lowValue ?? "off";`,
      `const c = (settings.x ?? DEFAULT_X) * 1000;`, `const d = input.limit ?? 50;`,
      `const e = settings.timeZone;`].join("\n");
    assert.deepEqual(settingDefaultsOutsideConfig(join(DOMAIN, "payment", "x.ts"), text)
      .map((w) => w.split(":")[1]), ["1", "2", "3"]);
    assert.deepEqual(settingDefaultsOutsideConfig(join(SRC, "config.ts"), text), []);
  });

  test("find setInterval outside the scheduler, called by name or on globalThis", () => {
    const text = [`const t = setInterval(tick, 1000);`, `// setInterval(tick)`,
      `globalThis.setInterval(tick, 5);`, `setTimeout(tick, 1000);`].join("\n");
    assert.deepEqual(intervalsOutsideScheduler(join(SRC, "app", "x.ts"), text)
      .map((w) => w.split(":").at(-1)), ["1", "3"]);
    const scheduler = join(SRC, "domain", "kernel", "scheduler.ts");
    assert.deepEqual(intervalsOutsideScheduler(scheduler, text), []);
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
