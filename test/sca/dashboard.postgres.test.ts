import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("dashboard.test", () => import("./dashboard.test.js"));
