import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("ledger-effects.test", () => import("./ledger-effects.test.js"));
