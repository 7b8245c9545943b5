import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("errors.test", () => import("./errors.test.js"));
