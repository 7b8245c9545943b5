import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("authorisation-confirmation.test", () => import("./authorisation-confirmation.test.js"));
