/**
 * compose.yaml, the reference deployment, and the Dockerfile it builds. Where Docker Compose is
 * installed, `docker compose config` must accept the file; everywhere, its structure is checked
 * against what the bank reads (every variable a setting of src/config.ts, the whole environment
 * valid for loadConfig) and what the README's passthrough balancer needs.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { loadConfig, SETTINGS } from "../src/config.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const COMPOSE_TEXT = readFileSync(`${ROOT}/compose.yaml`, "utf8");
const BANKS = ["bank-1", "bank-2"];

interface Service {
  image?: string;
  build?: string | { context: string };
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
const compose = parse(COMPOSE_TEXT, { merge: true }) as {
  services: Record<string, Service>; volumes?: Record<string, unknown>;
};
const services = compose.services;

/** Docker Compose's ${NAME:-default} as its default; ${NAME} and ${NAME:?message} as set. */
function interpolated(value: string): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_, name: string, kind?: string, rest?: string) => (kind === "-" ? rest! : `set-${name}`));
}

/** The service's mounts as [source, target, options]. */
const mounts = (service: Service) =>
  (service.volumes ?? []).map((v) => interpolated(v).split(":"));

const dockerCompose = spawnSync("docker", ["compose", "version"], { encoding: "utf8" });
const noCompose = dockerCompose.status === 0 ? false
  : "docker compose is not installed here: the structure tests below stand in";

test("docker compose config accepts compose.yaml", { skip: noCompose }, () => {
  const run = spawnSync("docker", ["compose", "-f", "compose.yaml", "config", "--quiet"],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, POSTGRES_PASSWORD: "x" } });
  assert.equal(run.status, 0, run.stderr);
});

describe("compose.yaml", () => {
  test("has PostgreSQL, two bank instances and the balancer, each with an image or a build", () => {
    assert.deepEqual(Object.keys(services).sort(), ["balancer", ...BANKS, "postgres"].sort());
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.image || service.build, `${name}: image or build`);
    }
    for (const bank of BANKS) {
      assert.equal(services[bank]!.build, ".", "the banks build this checkout's Dockerfile");
    }
    const named = Object.values(services).flatMap(mounts).map(([source]) => source!)
      .filter((source) => !/^[.$/]/.test(source));
    for (const volume of named) assert.ok(volume in (compose.volumes ?? {}), `volume ${volume}`);
    const variables = [...COMPOSE_TEXT.matchAll(/\$\{(\w+)/g)].map(([, name]) => name!);
    const header = COMPOSE_TEXT.split("\n").filter((line) => line.startsWith("#")).join("\n");
    for (const name of variables) assert.match(header, new RegExp(name), `${name} is explained`);
  });

  test("each bank runs in production on PostgreSQL, valid for loadConfig, known settings only", () => {
    const names = new Set(Object.values(SETTINGS).map((setting) => setting.name));
    for (const bank of BANKS) {
      const env = services[bank]!.environment!;
      for (const name of Object.keys(env)) assert.ok(names.has(name), `${bank}: ${name} is a setting`);
      const config = loadConfig(Object.fromEntries(Object.entries(env)
        .map(([name, value]) => [name, interpolated(String(value))])));
      assert.equal(config.mode, "production");
      assert.equal(config.host, "0.0.0.0");
      assert.equal(new URL(config.databaseUrl).hostname, "postgres");
      assert.equal(config.maxConnectionsPerAddress, 0, "every connection comes from the balancer");
      assert.deepEqual(services[bank]!.depends_on?.postgres, { condition: "service_healthy" });
      assert.equal(services[bank]!.ports, undefined, "only the balancer is reachable");
      assert.match(services[bank]!.healthcheck!.test.join(" "), /\/ready/);
    }
    assert.ok(services.postgres!.healthcheck, "the banks wait for a healthy PostgreSQL");
  });

  test("the TLS files and the trust store are mounted read-only where the banks read them", () => {
    for (const bank of BANKS) {
      const env = services[bank]!.environment!;
      for (const name of ["TLS_CERT_FILE", "TLS_KEY_FILE", "TPP_TRUST_STORE_FILE"]) {
        const mount = mounts(services[bank]!).find(([, target]) =>
          posix.dirname(env[name]!).startsWith(target!));
        assert.ok(mount, `${bank}: ${name} ${env[name]} is in a mounted directory`);
        assert.equal(mount[2], "ro", `${bank}: ${name} mounted read-only`);
      }
    }
  });

  test("the balancer forwards TCP to both banks' listeners and terminates no TLS", () => {
    const balancer = services.balancer!;
    assert.deepEqual(balancer.ports, ["443:443", "8444:8444"]);
    for (const bank of BANKS) {
      assert.deepEqual(balancer.depends_on?.[bank], { condition: "service_healthy" });
    }
    const [source, target] = mounts(balancer).find(([, t]) => t === "/etc/nginx/nginx.conf")!;
    assert.ok(existsSync(`${ROOT}/${source}`), `${source} exists`);
    const nginx = readFileSync(`${ROOT}/${source}`, "utf8");
    assert.ok(target);
    assert.match(nginx, /^stream \{/m);
    assert.doesNotMatch(nginx, /^\s*(http \{|ssl_|listen .*ssl)/m, "passthrough: no TLS at nginx");
    const { apiPort, authPort } = loadConfig({});
    for (const [upstream, port] of [["psd2_api", apiPort], ["psd2_auth", authPort]] as const) {
      const servers = new RegExp(`upstream ${upstream} +\\{([^}]*)\\}`).exec(nginx)?.[1] ?? "";
      const listed = [...servers.matchAll(/server ([\w-]+):(\d+);/g)].map(([, h, p]) => `${h}:${p}`);
      assert.deepEqual(listed, BANKS.map((bank) => `${bank}:${port}`), upstream);
    }
  });
});

test("the Dockerfile builds and runs on Node 24 slim, as the unprivileged node user", () => {
  const dockerfile = readFileSync(`${ROOT}/Dockerfile`, "utf8");
  const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map(([, image]) => image!);
  assert.ok(bases.length >= 2);
  for (const image of bases) assert.match(image, /^node:24(-\w+)?-slim$/);
  const runtime = dockerfile.split(/^FROM /m).at(-1)!;
  assert.match(runtime, /^USER node$/m);
  const dataDir = /DATA_DIR=(\S+)/.exec(runtime)?.[1];
  assert.match(runtime, new RegExp(`^VOLUME ${dataDir}$`, "m"), "DATA_DIR is the volume");
});

/** DATA_DIR holds the PSUs' data: the image and the unit make it owner-only, as the store does. */
test("the image and the systemd unit make DATA_DIR for its owner only", () => {
  const runtime = readFileSync(`${ROOT}/Dockerfile`, "utf8").split(/^FROM /m).at(-1)!;
  const dataDir = /DATA_DIR=(\S+)/.exec(runtime)?.[1];
  assert.match(runtime, new RegExp(`^RUN mkdir -p -m 700 ${dataDir} `, "m"), "the Dockerfile's DATA_DIR");
  const unit = readFileSync(`${ROOT}/deploy/psd2-bank.service`, "utf8");
  assert.match(unit, /^Environment=.*DATA_DIR=\/var\/lib\/psd2-bank\b/m, "the unit's DATA_DIR is its state directory");
  assert.match(unit, /^StateDirectory=psd2-bank$/m);
  assert.match(unit, /^StateDirectoryMode=0700$/m, "the unit's state directory");
});

/** What `npm start` sets for glibc, which the image and the unit run without npm. */
test("the image and the systemd unit run the bank with npm start's malloc settings", () => {
  const start = (JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as {
    scripts: { start: string } }).scripts.start;
  const tunables = /GLIBC_TUNABLES=(\S+)/.exec(start)?.[1];
  assert.ok(tunables, "npm start sets GLIBC_TUNABLES");
  const runtime = readFileSync(`${ROOT}/Dockerfile`, "utf8").split(/^FROM /m).at(-1)!;
  assert.match(runtime, new RegExp(`GLIBC_TUNABLES=${tunables}$`, "m"), "the Dockerfile's runtime stage");
  const unit = readFileSync(`${ROOT}/deploy/psd2-bank.service`, "utf8");
  assert.match(unit, new RegExp(`^Environment=GLIBC_TUNABLES=${tunables}$`, "m"), "the systemd unit");
});

/**
 * The bank in one file (scripts/bundle.mjs) restarts in about a quarter less CPU than its modules;
 * the heap limits are the ones the bench measures.
 */
test("the image and the systemd unit run the file npm start runs, with its Node flags", () => {
  const start = (JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as {
    scripts: { start: string } }).scripts.start;
  const [, flags, main] = /node ((?:--\S+ )*)(\S+\.js) start$/.exec(start) ?? [];
  assert.equal(main, "dist/src/psd2-bank.js", "npm start runs the bundle");
  assert.match(flags!, /--max-old-space-size=\d+ /, "npm start limits the heap");
  const words = flags!.split(" ").filter(Boolean);
  const runtime = readFileSync(`${ROOT}/Dockerfile`, "utf8").split(/^FROM /m).at(-1)!;
  const entrypoint = JSON.stringify(["node", ...words, main]).replaceAll(",", ", ");
  assert.ok(runtime.split("\n").includes(`ENTRYPOINT ${entrypoint}`), `the Dockerfile's entry point is ${entrypoint}`);
  const unit = readFileSync(`${ROOT}/deploy/psd2-bank.service`, "utf8");
  const execStart = `ExecStart=/usr/bin/node ${flags}/opt/psd2-bank/${main} start`;
  assert.ok(unit.split("\n").includes(execStart), `the systemd unit's ${execStart}`);
});

/**
 * What the compiled service reads beside itself (new URL("../…", import.meta.url) in src/, from
 * dist/src/…): each outside dist/src must be copied into the runtime image, or the image starts
 * and fails at the first request that needs it (the ISO 20022 schemas of pain.001 once did).
 */
test("the runtime image holds every file the service reads beside its compiled code", () => {
  const runtime = readFileSync(`${ROOT}/Dockerfile`, "utf8").split(/^FROM /m).at(-1)!;
  const copied = [...runtime.matchAll(/^COPY --from=build \/app\/(\S+)/gm)].map(([, path]) => path!);
  const read = sourceFiles(`${ROOT}/src`).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    const compiled = posix.join("dist", posix.relative(ROOT, posix.dirname(file)));
    return [...text.matchAll(/new URL\("(\.\.\/[^"]+)", import\.meta\.url\)/g)]
      .map(([, relative]) => posix.normalize(posix.join(compiled, relative!)))
      .filter((path) => !path.startsWith("dist/src/"));
  });
  assert.ok(read.some((path) => path.startsWith("schemas/")), "the scan finds the schemas it reads");
  for (const path of read) {
    assert.ok(copied.some((source) => path === source || path.startsWith(`${source.replace(/\/$/, "")}/`)),
      `the runtime image lacks ${path} (copied: ${copied.join(", ")})`);
  }
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => entry.isDirectory()
    ? sourceFiles(`${dir}/${entry.name}`) : entry.name.endsWith(".ts") ? [`${dir}/${entry.name}`] : []);
}
