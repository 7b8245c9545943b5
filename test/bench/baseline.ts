/**
 * The benchmarks' baseline: a bare Fastify HTTPS server that asks for a client certificate, as
 * psd2-bank does, and answers a fixed body. Run as its own process so that it gets the same
 * treatment as the bank. argv: port, certificate directory, file with the body.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Fastify from "fastify";

const [port = "0", certs = "", bodyFile = ""] = process.argv.slice(2);
const body = readFileSync(bodyFile, "utf8");
const server = Fastify({
  https: {
    key: readFileSync(join(certs, "server.key")), cert: readFileSync(join(certs, "server.crt")),
    ca: readFileSync(join(certs, "ca.crt")), requestCert: true, rejectUnauthorized: false, minVersion: "TLSv1.2",
  },
});
server.get("/psd2/v1/accounts", async (_request, reply) => reply.type("application/json").send(body));
await server.listen({ host: "127.0.0.1", port: Number(port) });
process.stdout.write("baseline ready\n");
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
