import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-consents.test", () => import("./v2-consents.test.js"));
