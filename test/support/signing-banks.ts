/**
 * The signature tests' two banks over real mTLS: one that requires a signature (`required`, the
 * setting that says so) and one that verifies a signature only when sent, with certificates of
 * the strict bank's development CA, and clients signing with the signer a test gives.
 */
import {
  issueTppCertificate, loadKeyAndCertificate, type KeyAndCertificate, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { startBank, type TestBank } from "./start-app.js";
import { TppClient, type RequestSigner } from "./tpp-client.js";

export interface SigningBanks {
  strict: TestBank;
  lenient: TestBank;
  /** Each bank has its own development CA; these are the strict bank's. */
  ca: KeyAndCertificate;
  /** The strict bank's demo TPP certificate, and the lenient bank's. */
  demo: KeyAndCertificate;
  lenientDemo: KeyAndCertificate;
  /** A client of `bank` with TLS certificate `tls`, its calls signed by `signer`. */
  client(bank: TestBank, tls: KeyAndCertificate, signer?: RequestSigner): TppClient;
  /** A certificate of the demo TPP's organisation from `issuer`, the strict bank's CA unless named. */
  certificate(over?: Partial<TppCertificateRequest>, issuer?: KeyAndCertificate): Promise<KeyAndCertificate>;
  close(): Promise<void>;
}

export async function startSigningBanks(
  required: Record<string, string>, roles: TppCertificateRequest["roles"],
): Promise<SigningBanks> {
  const [strict, lenient] = await Promise.all([startBank({ env: required }), startBank()]);
  const ca = await loadKeyAndCertificate(strict.certs.caCert, strict.certs.caKey);
  const demo = await loadKeyAndCertificate(strict.certs.tppCert, strict.certs.tppKey);
  const lenientDemo = await loadKeyAndCertificate(lenient.certs.tppCert, lenient.certs.tppKey);
  const clients: TppClient[] = [];
  return {
    strict, lenient, ca, demo, lenientDemo,
    client(bank, tls, signer) {
      const made = new TppClient(bank.apiUrl, { ca: bank.ca, cert: tls.certPem, key: tls.keyPem });
      // Checked like the bank's own clients (test/support/start-app.ts).
      made.profile = bank.tpp.profile;
      made.check = bank.tpp.check;
      made.signer = signer;
      clients.push(made);
      return made;
    },
    certificate: (over = {}, issuer = ca) => issueTppCertificate(issuer, {
      name: "Signing TPP", organizationIdentifier: "PSDDE-BAFIN-123456", roles, ...over,
    }),
    async close() {
      for (const made of clients) made.close();
      await Promise.all([strict.close(), lenient.close()]);
    },
  };
}
