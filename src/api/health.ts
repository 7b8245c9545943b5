/**
 * Probes for a load balancer, served without a client certificate: /health says the process is
 * alive, /ready whether it should get traffic (the database answers and it is not draining).
 */
import type { FastifyInstance } from "fastify";

export interface HealthOptions { ready: () => Promise<boolean> }

export function healthRoutes(app: FastifyInstance, options: HealthOptions): void {
  const config = { probe: true };
  app.get("/health", { config }, async () => ({ status: "UP" }));
  const status = { type: "object", properties: { status: { type: "string" } } };
  const schema = { response: { 200: status, 503: status } };
  app.get("/ready", { config, schema }, async (_request, reply) => {
    const ready = await options.ready();
    return reply.code(ready ? 200 : 503).send({ status: ready ? "UP" : "DOWN" });
  });
}
