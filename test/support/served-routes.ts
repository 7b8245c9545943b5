/** The routes a test bank's API listener serves, from Fastify's printed route tree. */
import type { TestBank } from "./start-app.js";

/**
 * "GET /psd2/v1/accounts/{}" for every route in Fastify's printed route tree. Parameter names
 * are blanked: where two routes share a parameter node the tree prints "{product}|{paymentId}".
 */
export function routesServed(bank: TestBank): string[] {
  const served: string[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of bank.app.api.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([│├└─\s]*)(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const path = (stack[stack.length - 1]?.path ?? "") + match[2];
    stack.push({ depth, path });
    for (const method of (match[3] ?? "").split(", ").filter((m) => m !== "" && m !== "HEAD")) {
      served.push(`${method} ${path.replace(/:[A-Za-z0-9_|:-]+/g, "{}")}`);
    }
  }
  return served.sort();
}

