import { rerunOnPostgres } from "../support/engines.js";

// The limits per requester are counted in the database, across instances.
rerunOnPostgres("vop responder", () => import("./vop-responder.test.js"));
