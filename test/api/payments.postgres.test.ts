import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("payments.test", () => import("./payments.test.js"));
