import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("exemptions.test", () => import("./exemptions.test.js"));
