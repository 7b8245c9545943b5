import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-vop.test", () => import("./v2-vop.test.js"));
