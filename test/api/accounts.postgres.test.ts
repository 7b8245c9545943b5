import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("accounts.test", () => import("./accounts.test.js"));
