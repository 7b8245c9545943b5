import { rerunOnPostgres } from "../support/engines.js";

rerunOnPostgres("tpp-rate-limit.test", () => import("./tpp-rate-limit.test.js"));
