import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("v2-notifications.test", () => import("./v2-notifications.test.js"));
