/**
 * A round-robin TCP balancer for the scale-out benchmark: each connection goes whole to the next
 * instance, bytes passed through untouched, so mutual TLS stays end to end between the TPP and the
 * instance, as behind a layer-4 load balancer (the bank sees the TPP's certificate itself).
 */
import { connect, createServer, type Socket } from "node:net";

export interface Balancer {
  port: number;
  close(): Promise<void>;
}

/** Longer than any benchmark request; a connection idle for this long is given up. */
const IDLE_MS = 30_000;
/** Far above the benchmark's connections; a runaway client cannot open sockets without end. */
const CONNECTIONS_MAX = 1_000;

/** Ends `socket` on idleness and on errors, and remembers it until it is closed. */
function watch(open: Set<Socket>, socket: Socket): void {
  open.add(socket);
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  // pipe() does not pass errors on; an unhandled reset would end the benchmark.
  socket.on("error", () => socket.destroy());
  socket.once("close", () => open.delete(socket));
}

/** Listens on 127.0.0.1, beside the instances on `ports` (each on 127.0.0.1 too). */
export async function startBalancer(ports: number[]): Promise<Balancer> {
  const open = new Set<Socket>();
  let next = 0;
  const server = createServer((client) => {
    const backend = connect({ host: "127.0.0.1", port: ports[next++ % ports.length]! });
    watch(open, client);
    watch(open, backend);
    client.pipe(backend).pipe(client);
    // Whichever side goes, the other goes with it: no half of a pair is left open.
    client.once("close", () => backend.destroy());
    backend.once("close", () => client.destroy());
  });
  server.maxConnections = CONNECTIONS_MAX;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    close: () => new Promise((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
