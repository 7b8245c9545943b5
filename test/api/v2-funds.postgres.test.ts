import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-funds.test", () => import("./v2-funds.test.js"));
