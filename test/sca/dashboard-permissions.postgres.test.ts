import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("dashboard-permissions.test", () => import("./dashboard-permissions.test.js"));
