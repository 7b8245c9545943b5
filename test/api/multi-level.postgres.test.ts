import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("multi-level.test", () => import("./multi-level.test.js"));
