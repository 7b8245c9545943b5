import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("consent-flow.test", () => import("./consent-flow.test.js"));
