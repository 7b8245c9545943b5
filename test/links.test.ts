/**
 * Every relative link of every Markdown file in git (README.md, docs/, bench/results/, ...) leads
 * somewhere: to a file or folder in git and, with a #fragment, to a heading of that file as
 * GitHub names its anchor. A page moved or a heading renamed breaks no reader's link unnoticed.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const tracked = (): string[] => execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
  .split("\n").filter((file) => file !== "" && !file.startsWith("node_modules/"));

/** The text outside fenced code blocks and inline code: what GitHub renders as links. */
function prose(markdown: string): string {
  return markdown.replace(/^ *(```|~~~)[^\n]*\n[\s\S]*?^ *\1 *$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** A heading's anchor as GitHub makes it: markup dropped, lower case, punctuation gone. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown text's headings, a repeated one numbered as GitHub numbers it. */
export function anchors(markdown: string): Set<string> {
  const text = markdown.replace(/^ *(```|~~~)[^\n]*\n[\s\S]*?^ *\1 *$/gm, "");
  const found = new Set<string>();
  for (const [, heading = ""] of text.matchAll(/^#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    const base = slug(heading);
    let anchor = base;
    for (let n = 1; found.has(anchor); n++) anchor = `${base}-${n}`;
    found.add(anchor);
  }
  return found;
}

/** The links of one file that do not lead to a tracked file, folder or heading. */
export function brokenLinks(document: string, read: (path: string) => string,
  files: string[]): string[] {
  const broken: string[] = [];
  const targets = [...prose(read(document)).matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)];
  for (const [, target = ""] of targets) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) continue;
    const [pathPart = "", fragment] = target.split("#");
    const path = pathPart === "" ? document
      : normalize(join(dirname(document), decodeURIComponent(pathPart))).replace(/\/$/, "");
    const isFile = files.includes(path);
    if (!isFile && !files.some((file) => file.startsWith(`${path}/`))) {
      broken.push(`${document}: ${target} (no such file in git)`);
    } else if (fragment !== undefined && !(isFile && path.endsWith(".md")
      && anchors(read(path)).has(decodeURIComponent(fragment)))) {
      broken.push(`${document}: ${target} (no heading #${fragment} in ${path})`);
    }
  }
  return broken;
}

test("every relative link of every Markdown file in git leads to a file and heading", () => {
  const files = tracked();
  const documents = files.filter((file) => file.endsWith(".md"));
  assert.ok(documents.includes("README.md") && documents.includes("docs/tpp-guide.md"));
  const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
  assert.deepEqual(documents.flatMap((document) => brokenLinks(document, read, files)), []);
});

test("anchors are GitHub's: markup and punctuation dropped, repeats numbered", () => {
  const page = [
    "# Getting started: from zero to a payment", "## The PSU's own `consent` dashboard",
    "## src/domain map", "```sh", "# a comment, not a heading", "```", "## Notes", "## Notes",
    "### [Linked](x.md) *emphasis* and_underscore", "## `scaStatus` moves → `finalised`",
  ].join("\n");
  assert.deepEqual([...anchors(page)], [
    "getting-started-from-zero-to-a-payment", "the-psus-own-consent-dashboard",
    "srcdomain-map", "notes", "notes-1", "linked-emphasis-and_underscore",
    "scastatus-moves--finalised",
  ]);
});

test("a missing file, a missing heading and a link in code are told apart", () => {
  const pages: Record<string, string> = {
    "docs/a.md": "[ok](b.md#two) [file](c.md) [anchor](b.md#three) [self](#one) `[code](gone.md)`"
      + " [web](https://example.com/x.md) [folder](../bench/) [up](../README.md#top)\n# One\n",
    "docs/b.md": "## Two\n",
    "README.md": "# Top\n",
  };
  const files = [...Object.keys(pages), "bench/results/latest.md"];
  assert.deepEqual(brokenLinks("docs/a.md", (path) => pages[path] ?? "", files), [
    "docs/a.md: c.md (no such file in git)",
    "docs/a.md: b.md#three (no heading #three in docs/b.md)",
  ]);
});
