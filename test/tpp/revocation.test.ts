/**
 * Revocation checkers without a bank: CRLs from any CA of a multi-CA trust bundle count, and
 * CRLs combine with OCSP (revoked by either is revoked, unknown by either is unknown).
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { X509Certificate } from "node:crypto";
import { createDevCa, issueCrl, issueTppCertificate } from "../../src/tpp/dev-ca.js";
import { combineRevocation } from "../../src/tpp/ocsp.js";
import { createCrlChecker, type RevocationChecker, type RevocationStatus } from "../../src/tpp/revocation.js";

const der = (pem: string) => new Uint8Array(new X509Certificate(pem).raw);

test("a CRL of the second CA in a trust bundle is verified and applied", async () => {
  const dir = await mkdtemp(join(tmpdir(), "psd2-crl-bundle-"));
  try {
    const first = await createDevCa("First QTSP");
    const second = await createDevCa("Second QTSP");
    const request = { name: "TPP", organizationIdentifier: "PSDDE-BAFIN-840001", roles: ["PSP_AI" as const] };
    const revoked = await issueTppCertificate(second, request);
    const kept = await issueTppCertificate(second, request);
    const crl = join(dir, "second.crl");
    await writeFile(crl, await issueCrl(second, [revoked.certPem]));
    const checker = createCrlChecker([crl], [first.certPem + second.certPem]);
    assert.equal(await checker.status(der(revoked.certPem)), "revoked");
    assert.equal(await checker.status(der(kept.certPem)), "good");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("revoked by either checker is revoked; otherwise unknown by either is unknown", async () => {
  const fixed = (status: RevocationStatus): RevocationChecker => ({ status: async () => status });
  const cert = der((await issueTppCertificate(await createDevCa(), {
    name: "TPP", organizationIdentifier: "PSDDE-BAFIN-840002", roles: ["PSP_AI"],
  })).certPem);
  const cases: [RevocationStatus, RevocationStatus, RevocationStatus][] = [
    ["good", "good", "good"], ["good", "revoked", "revoked"], ["unknown", "revoked", "revoked"],
    ["unknown", "good", "unknown"], ["good", "unknown", "unknown"],
  ];
  for (const [crl, ocsp, expected] of cases) {
    assert.equal(await combineRevocation([fixed(crl), fixed(ocsp)]).status(cert), expected, `${crl} + ${ocsp}`);
  }
});
