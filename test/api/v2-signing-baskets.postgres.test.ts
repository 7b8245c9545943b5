import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-signing-baskets.test", () => import("./v2-signing-baskets.test.js"));
