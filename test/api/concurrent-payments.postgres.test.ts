import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("concurrent-payments.test", () => import("./concurrent-payments.test.js"));
