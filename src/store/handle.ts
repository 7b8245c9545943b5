/**
 * The handles every repository takes, apart from db.ts, which builds the repositories: so that
 * no repository imports the module that imports it.
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

export type Engine = "sqlite" | "postgres";
/** A transaction, or the database itself outside one; repositories accept either. */
export type Tx = Kysely<Database>;
