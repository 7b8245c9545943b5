import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("status-polling.test", () => import("./status-polling.test.js"));
