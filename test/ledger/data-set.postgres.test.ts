import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("data-set.test", () => import("./data-set.test.js"));
