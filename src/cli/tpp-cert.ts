/** `psd2-bank tpp-cert`: a TPP certificate (QWAC form) from the sandbox's development CA. */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Config } from "../config.js";
import { OperatorError } from "../domain/kernel/errors.js";
import type { PspRole } from "../tpp/certificate.js";
import { issueTppCertificate, loadKeyAndCertificate } from "../tpp/dev-ca.js";

const ROLES: readonly PspRole[] = ["PSP_AS", "PSP_PI", "PSP_AI", "PSP_IC"];

function rolesOf(raw: string | undefined): PspRole[] {
  const roles = (raw ?? ROLES.join(",")).split(",").map((r) => r.trim());
  const unknown = roles.filter((r) => !ROLES.includes(r as PspRole));
  if (unknown.length > 0) {
    throw new OperatorError(`unknown role(s) ${unknown.join(", ")}; use ${ROLES.join(", ")}`);
  }
  return roles as PspRole[];
}

function orgIdOf(raw: string | undefined): string {
  const orgId = raw ?? `PSDDE-BAFIN-${randomBytes(3).toString("hex").toUpperCase()}`;
  if (!/^PSD[A-Z]{2}-[A-Z]{2,8}-.+$/.test(orgId)) {
    throw new OperatorError(`--org-id must look like PSDDE-BAFIN-123456, got ${orgId}`);
  }
  return orgId;
}

export async function tppCert(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args, options: {
      name: { type: "string" }, roles: { type: "string" }, "org-id": { type: "string" },
      domains: { type: "string" }, out: { type: "string" },
    },
  });
  if (!values.name) throw new OperatorError("tpp-cert needs --name");
  if (!values.out) throw new OperatorError("tpp-cert needs --out DIR");
  const [roles, orgId] = [rolesOf(values.roles), orgIdOf(values["org-id"])];
  const certDir = join(config.dataDir, "certs");
  const ca = await loadKeyAndCertificate(join(certDir, "ca.crt"), join(certDir, "ca.key"))
    .catch(() => {
      throw new OperatorError(`no development CA in ${certDir}: run "npm start" once first`);
    });
  const issued = await issueTppCertificate(ca, {
    name: values.name, organizationIdentifier: orgId, roles,
    domains: values.domains ? values.domains.split(",") : undefined,
  });
  const out = resolve(values.out);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "tpp.crt"), issued.certPem);
  await writeFile(join(out, "tpp.key"), issued.keyPem, { mode: 0o600 });
  process.stdout.write(`Issued "${values.name}" (${orgId}, roles ${roles.join(", ")}):\n`
    + `  ${join(out, "tpp.crt")}\n  ${join(out, "tpp.key")}\n`);
}
