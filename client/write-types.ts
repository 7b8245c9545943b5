/**
 * Part of `npm run build`: writes client/types/<profile>.ts, the types of this bank's own OpenAPI
 * document in each profile, so that the API tests (and projects using client/ from a checkout)
 * type-check against the routes as they are. Generated on every build, never committed. The
 * documents come from the app itself, built on a throwaway data directory, without listening.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app/build-app.js";
import { API_PROFILES, loadConfig } from "../src/config.js";
import { generateTypes } from "./generate.js";

const out = join(import.meta.dirname, "..", "..", "client", "types");
const dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-client-types-"));
try {
  await mkdir(out, { recursive: true });
  for (const profile of API_PROFILES) {
    // The document depends on the routes only: no demo PSUs to hash passwords for.
    const config = loadConfig({ DATA_DIR: dataDir, API_PROFILE: profile, SEED_DEMO_DATA: "false" });
    const app = await buildApp(config, { logLevel: "silent" });
    try {
      await writeFile(join(out, `${profile}.ts`), await generateTypes(app.openApiDocument()));
    } finally {
      await app.close();
    }
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
