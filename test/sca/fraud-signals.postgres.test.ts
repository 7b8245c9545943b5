import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("fraud-signals.test", () => import("./fraud-signals.test.js"));
