import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-payments.test", () => import("./v2-payments.test.js"));
