import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("funds-confirmations.test", () => import("./funds-confirmations.test.js"));
