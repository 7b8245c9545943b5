import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2.test", () => import("./v2.test.js"));
