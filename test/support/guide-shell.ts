/**
 * Runs a guide's `sh` examples as written, with the real curl and the real command line, against
 * a test bank: in a scratch folder whose `data/` is the bank's data directory (so
 * `data/certs/ca.crt` is its CA and the demo TPP's certificate), with the guide's
 * https://localhost:8443 and :8444 turned into the bank's URLs and its placeholders (PAYMENT_ID,
 * $CONSENT_ID, ...) into the values a test or an earlier command found.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FRESH_BUILD = "node scripts/fresh-build.mjs && ";

/** The `sh` blocks of a Markdown text, as a reader copies them (a list's indentation removed). */
export function shBlocks(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^( *)```sh\n([\s\S]*?)^ *```$/gm)];
  return blocks.map(([, indent = "", block = ""]) => block.split("\n")
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join("\n"));
}

/**
 * A section's text, from its heading to the next heading of the same or a higher level (a `#`
 * line inside a code block is no heading).
 */
export function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const lines = markdown.split("\n");
  let fenced = false;
  let from = -1;
  let to = lines.length;
  for (const [i, line] of lines.entries()) {
    if (/^ *(```|~~~)/.test(line)) fenced = !fenced;
    const found = fenced ? undefined : /^(#+) /.exec(line)?.[1];
    if (from < 0 && line === heading) from = i;
    else if (from >= 0 && found !== undefined && found.length <= level) { to = i; break; }
  }
  assert.ok(from >= 0, `the guide has the section ${heading}`);
  return lines.slice(from, to).join("\n");
}

export interface Command {
  /** The command as the shell gets it: continuation lines joined, a trailing comment dropped. */
  text: string;
  /** `# -> NAME` after a command: NAME takes the answer's id (PAYMENT_ID: `paymentId`). */
  into?: string;
}

/**
 * A block's commands, split where the shell splits them: at a line end outside quotes and not
 * escaped by a backslash. Comment lines are left out.
 */
export function commandsOf(block: string): Command[] {
  const commands: string[] = [];
  let current = "";
  let quote = "";
  for (let i = 0; i < block.length; i++) {
    const c = block[i] ?? "";
    if (quote === "" && c === "\\" && block[i + 1] === "\n") { i++; continue; }
    if (quote === "" && c === "\n") { commands.push(current); current = ""; continue; }
    if (quote === "" && (c === "'" || c === "\"")) quote = c;
    else if (c === quote) quote = "";
    current += c;
  }
  commands.push(current);
  return commands.map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const into = /\s+#\s*->\s*(\w+)$/.exec(line);
      return into ? { text: line.slice(0, into.index), into: into[1] } : { text: line };
    });
}

export interface Answer {
  /** The HTTP status of a curl call; a command's exit status otherwise. */
  status: number;
  stdout: string;
  stderr: string;
  /** The answer as JSON, when it is JSON. */
  json: any;
}

/** npm run NAME --: the package's script without its build check, as a test runs it (built). */
function npmRun(command: string): string {
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as
    Record<string, string>;
  return command.replace(/^npm run ([\w-]+) --/, (_, name: string) => {
    const script = scripts[name];
    assert.ok(script?.startsWith(FRESH_BUILD), `npm run ${name} builds, then runs node`);
    return (script ?? "").slice(FRESH_BUILD.length).replaceAll(" dist/", ` ${ROOT}dist/`);
  });
}

export class GuideShell {
  /** Values for the guide's placeholders, by name. */
  readonly values: Record<string, string> = {};
  private readonly prelude: string[] = [];

  private constructor(readonly dir: string, private readonly urls: { api: string; auth: string }) {}

  static async open(bank: { apiUrl: string; authUrl: string; certs: { caCert: string } }) {
    const dir = await mkdtemp(join(tmpdir(), "psd2-guide-"));
    await mkdir(join(dir, "data"));
    await symlink(dirname(bank.certs.caCert), join(dir, "data", "certs"));
    return new GuideShell(dir, { api: bank.apiUrl, auth: bank.authUrl });
  }

  close(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
  }

  /** The command with the test bank's URLs and the placeholders' values. */
  private fill(text: string): string {
    const urls = text.replaceAll("https://localhost:8443", this.urls.api)
      .replaceAll("https://localhost:8444", this.urls.auth);
    return Object.entries(this.values).reduce((filled, [name, value]) =>
      filled.replace(new RegExp(`\\$?\\b${name}\\b`, "g"), value), urls);
  }

  /**
   * Runs one command in a shell with the block's earlier definitions (`TPP=...`, `rid() {...}`);
   * a definition itself is only remembered. A curl call's status is its answer's HTTP status.
   */
  async run({ text, into }: Command): Promise<Answer | undefined> {
    if (!/^(curl|npm) /.test(text)) { this.prelude.push(text); return undefined; }
    const command = text.startsWith("curl ")
      ? `curl -w '%{stderr}%{http_code}' ${text.slice(5)}` : npmRun(text);
    const { code, stdout, stderr } = await this.shell([...this.prelude, this.fill(command)]);
    const status = text.startsWith("curl ") ? Number(stderr.trim().slice(-3)) : code;
    let json: any;
    try { json = JSON.parse(stdout); } catch { json = undefined; }
    if (into !== undefined) {
      const key = into.toLowerCase().replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
      assert.equal(typeof json?.[key], "string", `${text}\nanswered ${stdout}`);
      this.values[into] = json[key];
    }
    return { status, stdout, stderr, json };
  }

  /**
   * Every command of a block, in order; the answers of the calls and commands. `fresh`: the
   * block starts a new shell; otherwise it goes on from the earlier block's definitions, as a
   * reader's terminal does for the blocks of one section.
   */
  async runBlock(block: string, fresh = true): Promise<Answer[]> {
    if (fresh) this.prelude.length = 0;
    const answers: Answer[] = [];
    for (const command of commandsOf(block)) {
      const answer = await this.run(command);
      if (answer) answers.push(answer);
    }
    return answers;
  }

  private shell(lines: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { ...process.env, DATA_DIR: join(this.dir, "data"), LOG_LEVEL: "silent" };
    return new Promise((resolve) => {
      execFile("sh", ["-c", lines.join("\n")], { cwd: this.dir, env, maxBuffer: 64 << 20 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
    });
  }
}
