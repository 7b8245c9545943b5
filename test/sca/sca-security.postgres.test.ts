import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("sca-security.test", () => import("./sca-security.test.js"));
