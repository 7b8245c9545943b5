import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("signing-baskets.test", () => import("./signing-baskets.test.js"));
