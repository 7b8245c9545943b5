import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("payment-limits.test", () => import("./payment-limits.test.js"));
