import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("core.test", () => import("./core.test.js"));
