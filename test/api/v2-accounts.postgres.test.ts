import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-accounts.test", () => import("./v2-accounts.test.js"));
