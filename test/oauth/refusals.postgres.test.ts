import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("oauth refusals", () => import("./refusals.test.js"));
