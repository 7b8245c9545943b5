import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-approaches.test", () => import("./v2-approaches.test.js"));
