#!/usr/bin/env node
/**
 * The bank in one file, dist/src/psd2-bank.js, which `npm start`, the CLI and the deployments
 * run: loading its 1,200 modules one at a time (resolving, reading, linking each) was about half
 * of a restart's CPU (docs/performance.md, "Round two: the bank in one file"). The last step of
 * `npm run build`: esbuild joins the compiled dist/src/main.js and the packages it imports. Left
 * out, and loaded as before: the packages with native code or files of their own read at run
 * time, and those imported only when needed (pg on PostgreSQL, oidc-provider at the first OAuth
 * request). The worker threads' files stay where tsc wrote them.
 */
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";

const DIST = fileURLToPath(new URL("../dist/src/", import.meta.url));
const OUT = `${DIST}psd2-bank.js`;
const EXTERNAL = [
  "better-sqlite3", "@node-rs/argon2", "xmllint-wasm", "pg", "oidc-provider",
  // pino's transports start workers from files beside its own (__dirname).
  "pino",
];

/**
 * Every character past ASCII as its \u escape, in the code and the comments alike: V8 keeps a
 * source that holds a single one at two bytes a character (the bundle's 4 MB at 8 MB), and decodes
 * it more slowly. esbuild escapes the strings, not the regular expressions, template literals
 * (`html` and `sql` read their cooked text, which the escape leaves as it was) and comments.
 */
const asAscii = (text) => text.replace(/[^\0-\x7f]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * A module's `import.meta.url` would name the bundle: each is made its own file's URL again, so
 * that the files read beside a module (a worker, the XSDs, package.json) are found where they were.
 */
const ownUrl = (text, path) => text.replaceAll("import.meta.url",
  `new URL(${JSON.stringify(`./${relative(dirname(OUT), path)}`)}, import.meta.url).href`);

const sources = {
  name: "ascii-sources-with-own-urls",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.m?js$/ }, async ({ path }) => {
      const text = await readFile(path, "utf8");
      return { contents: ownUrl(asAscii(text), path), loader: "js", resolveDir: dirname(path) };
    });
  },
};

/**
 * Node's own modules through require(): an ES module import of one builds its ES module facade,
 * which reads every export, and node:http's lazy getters (WebSocket and others) then load the
 * whole of undici, which the bank never uses (30-40 ms of a restart's CPU).
 */
const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((name) => name.replace(/[/]/g, "\\/")).join("|")})$`);
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(esbuild) {
    esbuild.onResolve({ filter: BUILTIN }, ({ path, kind }) => (kind === "require-call"
      ? { path, external: true } : { path, namespace: "builtin" }));
    esbuild.onLoad({ filter: /.*/, namespace: "builtin" }, ({ path }) =>
      ({ contents: `module.exports = require(${JSON.stringify(path)});`, loader: "js" }));
  },
};

await build({
  entryPoints: [`${DIST}main.js`], outfile: OUT, bundle: true, platform: "node", format: "esm",
  target: "node22", external: EXTERNAL, plugins: [sources, builtinsByRequire], sourcemap: "linked",
  legalComments: "none", logLevel: "warning",
  // The CommonJS packages inside an ES module still call require() for Node's own modules.
  banner: { js: "import { createRequire as bundleRequire } from \"node:module\";\n"
    + "const require = bundleRequire(import.meta.url);" },
});

const bundled = await readFile(OUT, "utf8");
const wide = /[^\0-\x7f]/.exec(bundled);
if (wide) throw new Error(`${OUT}:${bundled.slice(0, wide.index).split("\n").length} is not ASCII`);
// A bundled package that reads a file beside its own would look for it beside the bundle.
const beside = /\b__(dirname|filename)\b/.exec(bundled);
if (beside) {
  const line = bundled.slice(0, beside.index).split("\n").length;
  throw new Error(`${OUT}:${line} reads ${beside[0]}: add its package to EXTERNAL in scripts/bundle.mjs`);
}
