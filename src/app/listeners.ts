/**
 * The three listeners: the TPP API (client certificates), the PSU pages (none) and the
 * operator's (metrics, health), with their timeouts and connection limits, and how they start.
 */
import type { Server as NetServer, Socket } from "node:net";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type pino from "pino";
import { adminRoutes, createMetrics } from "../admin.js";
import { healthRoutes } from "../api/health.js";
import { apiClientErrorHandler } from "../api/plugin.js";
import { ConfigError, type Config } from "../config.js";
import { createOpenCount } from "../lib/rate-limit.js";
import type { Store } from "../store/db.js";
import { schemasOnFirstUse } from "./lazy-schemas.js";
import type { TlsMaterial } from "./tls.js";

/**
 * Both listeners' timeouts (Node closes what exceeds them, answering 408 while it can): no slow
 * or idle client holds a connection for long. Node checks the running requests' timeouts every
 * connectionsCheckingInterval, so that interval is kept well below the shortest timeout.
 */
export function connectionLimits(config: Config) {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  const headersTimeout = config.headersTimeoutSeconds * 1000;
  return {
    server: {
      // A client that never finishes its TLS handshake is dropped at the header deadline too.
      requestTimeout, headersTimeout, handshakeTimeout: headersTimeout,
      connectionsCheckingInterval: Math.min(1000, headersTimeout / 4),
    },
    fastify: { requestTimeout, keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000 },
  };
}

type Limits = ReturnType<typeof connectionLimits>;

/**
 * A listener's logger, named; Fastify's two lines per request cost throughput, and the API logs
 * one line per request itself.
 */
const logging = (logger: pino.Logger, listener: string) => ({
  loggerInstance: logger.child({ listener }) as FastifyBaseLogger,
  logController: new LogController({ disableRequestLogging: true }),
});

/** The TPP's listener: a client certificate is asked for, and judged by the API's plugin. */
export function apiListener(
  config: Config, logger: pino.Logger, tls: TlsMaterial, limits: Limits,
): FastifyInstance {
  return Fastify({
    ...logging(logger, "api"),
    requestIdHeader: "x-request-id",
    bodyLimit: config.bodyLimitBytes,
    ...limits.fastify,
    https: {
      ...tls, requestCert: true, rejectUnauthorized: false, minVersion: "TLSv1.2",
      maxHeaderSize: config.headerLimitBytes, ...limits.server,
    },
    clientErrorHandler: apiClientErrorHandler,
    ...schemasOnFirstUse({
      coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false,
      allowUnionTypes: true,
    }),
  });
}

/** The PSU's listener: no client certificates. */
export function authListener(
  config: Config, logger: pino.Logger, tls: TlsMaterial, limits: Limits,
): FastifyInstance {
  return Fastify({
    ...logging(logger, "auth"),
    ...limits.fastify,
    ...schemasOnFirstUse(),
    https: {
      key: tls.key, cert: tls.cert, minVersion: "TLSv1.2", maxHeaderSize: config.headerLimitBytes,
      ...limits.server,
    },
  });
}

interface Listeners { api: FastifyInstance; auth: FastifyInstance; admin: FastifyInstance }

/** The operator's listener, with the metrics of the other two. */
export function adminListener(
  logger: pino.Logger, store: Store, listeners: Pick<Listeners, "api" | "auth">,
  ready: () => Promise<boolean>,
): FastifyInstance {
  const metrics = createMetrics(store);
  metrics.instrument(listeners.api, "api");
  metrics.instrument(listeners.auth, "auth");
  const admin = Fastify(logging(logger, "admin"));
  adminRoutes(admin, metrics);
  healthRoutes(admin, { ready });
  return admin;
}

/** Closes a client address's connections beyond `limit` (0: no limit) as they are accepted. */
function limitPerAddress(server: NetServer, limit: number): void {
  if (limit <= 0) return;
  const open = createOpenCount();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    if (!open.enter(address, limit)) {
      socket.destroy();
      return;
    }
    socket.once("close", () => open.leave(address));
  });
}

export function limitConnections(
  config: Config, servers: FastifyInstance[], draining: () => boolean,
): void {
  for (const server of servers) {
    server.server.maxConnections = config.maxConnections;
    limitPerAddress(server.server, config.maxConnectionsPerAddress);
    // While draining, each answer closes its keep-alive connection: otherwise close() would wait
    // out the keep-alive timeout (KEEP_ALIVE_TIMEOUT_SECONDS) of every client that was in flight.
    server.addHook("onSend", async (_request, reply) => {
      if (draining()) reply.header("Connection", "close");
    });
  }
}

/**
 * Tells the store of the requests as they arrive, before Fastify sees them: the shared reads then
 * count every commit made before a request (see Store.arrived). Once per poll of the sockets, not
 * per request: the requests Node reads in one poll were all readable when the poll returned, so
 * each arrived before the first of them is announced, and the store's next check of the database
 * (SQLite's `data_version`, 2-11 µs) is later than each arrival. The announcement is open again
 * from the check phase that follows the poll (`setImmediate`), so no later poll shares it.
 */
export function announceArrivals(store: Pick<Store, "arrived">, servers: FastifyInstance[]): void {
  const arrive = oncePerPoll(() => store.arrived());
  for (const server of servers) server.server.prependListener("request", arrive);
}

/** `announce`, at the first call of each turn of the event loop only. */
export function oncePerPoll(announce: () => void): () => void {
  let announced = false;
  const reopen = () => (announced = false);
  return () => {
    if (announced) return;
    announced = true;
    announce();
    setImmediate(reopen);
  };
}

/** A port the bank cannot listen on, as the operator's mistake it usually is. */
function portProblem(error: unknown, setting: string, address: string): ConfigError | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === "EADDRINUSE") {
    return new ConfigError(`${address} is in use (${setting}): is another psd2-bank running? `
      + `Stop it, or set ${setting} to a free port`);
  }
  if (code === "EACCES") {
    return new ConfigError(`${address} needs privileges this user lacks (${setting}): `
      + `set ${setting} to a port above 1023`);
  }
  return undefined;
}

/** The port a listener is bound to; 0 before it listens. */
export function boundPort(server: FastifyInstance): number {
  const address = server.server.address();
  return typeof address === "object" && address ? address.port : 0;
}

/** Starts the three listeners, closing everything when one fails; returns their ports. */
export async function listenAll(config: Config, listeners: Listeners, close: () => Promise<void>) {
  const { api, auth, admin } = listeners;
  const order = [[auth, config.host, config.authPort, "AUTH_PORT"],
    [api, config.host, config.apiPort, "API_PORT"],
    [admin, config.adminHost, config.adminPort, "ADMIN_PORT"]] as const;
  for (const [server, host, port, setting] of order) {
    try {
      await server.listen({ host, port });
    } catch (error) {
      // A port in use must not leave the other listeners, timers and the database open.
      await close();
      throw portProblem(error, setting, `${host}:${port}`) ?? error;
    }
  }
  return { api: boundPort(api), auth: boundPort(auth), admin: boundPort(admin) };
}
