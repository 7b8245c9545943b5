import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("pages.test", () => import("./pages.test.js"));
