import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("payment-flow.test", () => import("./payment-flow.test.js"));
