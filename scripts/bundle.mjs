#!/usr/bin/env node
/**
 * The bank in one file, dist/src/psd2-bank.js, which `npm start`, the CLI and the deployments
 * run: loading its 1,200 modules one at a time (resolving, reading, linking each) was two thirds
 * of a restart's CPU (docs/performance.md, "One bundle"). The last step of `npm run build`: esbuild
 * joins the compiled dist/src/main.js and the packages it imports. Left out, and loaded as before:
 * the packages with native code or files of their own read at run time, and those imported only
 * when needed (pg on PostgreSQL, oidc-provider at the first OAuth request). The worker threads'
 * files stay where tsc wrote them.
 */
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
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
 * A module's `import.meta.url` would name the bundle: each is made its own file's URL again, so
 * that the files read beside a module (a worker, the XSDs, package.json) are found where they were.
 */
const ownUrls = {
  name: "own-urls",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.m?js$/ }, async ({ path }) => {
      const text = await readFile(path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const own = `new URL(${JSON.stringify(`./${relative(dirname(OUT), path)}`)}, import.meta.url).href`;
      return { contents: text.replaceAll("import.meta.url", own), loader: "js", resolveDir: dirname(path) };
    });
  },
};

await build({
  entryPoints: [`${DIST}main.js`], outfile: OUT, bundle: true, platform: "node", format: "esm",
  target: "node22", external: EXTERNAL, plugins: [ownUrls], sourcemap: "linked",
  legalComments: "none", logLevel: "warning",
  // The CommonJS packages inside an ES module still call require() for Node's own modules.
  banner: { js: "import { createRequire as bundleRequire } from \"node:module\";\n"
    + "const require = bundleRequire(import.meta.url);" },
});

// A bundled package that reads a file beside its own would look for it beside the bundle.
const bundled = await readFile(OUT, "utf8");
const beside = /\b__(dirname|filename)\b/.exec(bundled);
if (beside) {
  const line = bundled.slice(0, beside.index).split("\n").length;
  throw new Error(`${OUT}:${line} reads ${beside[0]}: add its package to EXTERNAL in scripts/bundle.mjs`);
}
