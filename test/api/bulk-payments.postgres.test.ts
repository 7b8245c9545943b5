import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("bulk-payments.test", () => import("./bulk-payments.test.js"));
