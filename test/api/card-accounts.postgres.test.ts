import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("card-accounts.test", () => import("./card-accounts.test.js"));
