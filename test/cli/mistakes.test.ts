/**
 * An operator's ordinary mistakes, as a separate process meets them: one line on stderr naming the
 * setting or file, no stack trace, a non-zero exit, and never a wait without end.
 */
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { listenerPorts, MAIN } from "../support/cli.js";

let scratch: string;
before(async () => { scratch = await mkdtemp(join(tmpdir(), "psd2-bank-mistakes-")); });
after(async () => { await rm(scratch, { recursive: true, force: true }); });

/** The command, killed after 60 s so that a hang fails the test instead of stalling it. */
function run(args: string[], env: Record<string, string>, options: SpawnSyncOptions = {}) {
  const result = spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env }, encoding: "utf8", timeout: 60_000,
    ...options,
  });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Refused as an operator's mistake: exit 2 and exactly one line on stderr. */
function assertOneLine(result: ReturnType<typeof run>, message: RegExp): void {
  assert.equal(result.status, 2, `exit ${result.status}: ${result.stderr}`);
  assert.match(result.stderr, /^psd2-bank: [^\n]+\n$/, result.stderr);
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
}

function occupy(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer().listen(port, "127.0.0.1", () => resolve(server));
  });
}

for (const setting of ["API_PORT", "AUTH_PORT", "ADMIN_PORT"] as const) {
  test(`a port in use names itself and ${setting}, and asks whether another psd2-bank runs`, async () => {
    const ports = await listenerPorts();
    const held = await occupy(Number(ports[setting]));
    try {
      const result = run(["start"], { DATA_DIR: join(scratch, "ports"), ...ports });
      assertOneLine(result, new RegExp(`127\\.0\\.0\\.1:${ports[setting]} is in use \\(${setting}\\): `
        + `is another psd2-bank running\\? Stop it, or set ${setting} to a free port`));
    } finally {
      held.close();
    }
  });
}

test("a DATA_DIR that is a file is named, for the bank and for an operator command", async () => {
  const file = join(scratch, "a-file");
  await writeFile(file, "not a directory");
  assertOneLine(run(["start"], { DATA_DIR: file }),
    new RegExp(`DATA_DIR ${file} is a file, not a directory; set DATA_DIR to a directory`));
  assertOneLine(run(["psu", "list"], { DATA_DIR: join(file, "below") }),
    new RegExp(`DATA_DIR ${file}/below cannot be created: ${file} is a file, not a directory`));
});

test("a DATA_DIR this user may not write is named", async () => {
  const locked = join(scratch, "locked");
  await mkdir(locked);
  await chmod(scratch, 0o755);
  await chmod(locked, 0o555);
  // root writes everywhere: the bank runs as nobody there, as an operator's service user would.
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  assertOneLine(run(["start"], { DATA_DIR: join(locked, "data") }, asUser),
    new RegExp(`DATA_DIR ${locked}/data cannot be created: ${locked} is not writable for this user`));
});

test("a DATA_DIR under /proc is refused at once, before anything is created there", () => {
  assertOneLine(run(["start"], { DATA_DIR: "/proc/psd2-bank" }),
    /DATA_DIR \/proc\/psd2-bank is under \/proc, a kernel file system/);
});

test("a database file that is not a database is named by its path", async () => {
  const dataDir = join(scratch, "garbage");
  await mkdir(dataDir);
  const file = join(dataDir, "psd2-bank.sqlite");
  await writeFile(file, "these bytes are not a SQLite database, whatever the name says. ".repeat(20));
  assertOneLine(run(["start"], { DATA_DIR: dataDir, ...await listenerPorts() }),
    new RegExp(`${file} is not a SQLite database: move it away`));
  assertOneLine(run(["psu", "list"], { DATA_DIR: dataDir }), new RegExp(`${file} is not a SQLite`));
});
