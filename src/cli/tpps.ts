/** `psd2-bank tpp ...` and `psd2-bank audit`: the stop-list and the audit log. */
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import { OperatorError } from "../domain/kernel/errors.js";
import { print, required, table, usageEntry } from "./output.js";

export const TPP_USAGE = [
  usageEntry("tpp list", "TPPs that called the API, with their stop-list state"),
  usageEntry("tpp block ID | tpp unblock ID",
    "put a TPP (organizationIdentifier) on the stop-list, or take it off;",
    "a TPP not seen yet can be blocked in advance"),
  usageEntry("audit [--tpp ID] [--resource ID] [--request-id X] [--since T] [--until T] "
    + "[--limit N]",
    "API requests and outcomes, newest first (default limit 100)"),
].join("\n");

export async function tppCommand(admin: Administration, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: { json: { type: "boolean" } },
  });
  const [action, id] = positionals;
  switch (action) {
    case "list": {
      const tpps = await admin.tpps.list();
      return print(values.json, tpps, () => table(["id", "name", "stop-list", "first seen"],
        tpps.map((t) => [t.id, t.name, t.blocked ? "BLOCKED" : "", t.createdAt])));
    }
    case "block":
    case "unblock": {
      const blocked = action === "block";
      await admin.tpps.setBlocked(required(id, "the TPP's id"), blocked);
      return print(values.json, { id, blocked },
        () => `TPP ${id} ${blocked ? "blocked" : "unblocked"}.\n`);
    }
    default:
      throw new OperatorError(`tpp needs one of: list, block, unblock\n${TPP_USAGE}`);
  }
}

export async function auditCommand(admin: Administration, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args, options: {
      json: { type: "boolean" }, tpp: { type: "string" }, resource: { type: "string" },
      "request-id": { type: "string" }, since: { type: "string" }, until: { type: "string" },
      limit: { type: "string" },
    },
  });
  const entries = await admin.audit.query({
    tppId: values.tpp, resourceId: values.resource, requestId: values["request-id"],
    since: values.since, until: values.until,
    limit: values.limit === undefined ? undefined : Number(values.limit),
  });
  print(values.json, entries, () => table(
    ["at", "tpp", "request id", "psu ip", "method", "path", "resource", "status", "ms"],
    entries.map((e) => [e.at, e.tppId ?? "", e.requestId ?? "", e.psuIp ?? "", e.method, e.path,
      e.resourceId ?? "", String(e.status), String(e.ms)])));
}
