import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("periodic-payments.test", () => import("./periodic-payments.test.js"));
