import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("funds-consents.test", () => import("./funds-consents.test.js"));
