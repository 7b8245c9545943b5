import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("payment-lifecycle.test", () => import("./payment-lifecycle.test.js"));
