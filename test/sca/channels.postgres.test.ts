import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("channels.test", () => import("./channels.test.js"));
