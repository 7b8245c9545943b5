/**
 * Who a TPP is, read from its eIDAS certificate (QWAC, ETSI TS 119 495 profile). Pure parsing of
 * untrusted bytes, no I/O: chain and validity window are the TLS layer's job and are only reported
 * here. Every failure is a CERTIFICATE_INVALID problem with a reason; nothing here throws.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import * as asn1js from "asn1js";
import {
  decodePsd2QcStatement,
  OID_QC_STATEMENTS,
  quote,
  type PspRole,
  type Psd2QcStatement,
} from "./qc-statement.js";

export type { PspRole } from "./qc-statement.js";

export interface TppIdentity {
  /**
   * organizationIdentifier, e.g. "PSDDE-BAFIN-123456": the tenant key (NCA id + authorisation
   * number), stable across renewals
   */
  id: string;
  /** subject O, else CN */
  name: string;
  roles: readonly PspRole[];
  /** e.g. "DE-BAFIN" */
  ncaId: string;
  /** e.g. "Federal Financial Supervisory Authority" */
  ncaName: string;
  /** e.g. "123456" */
  authorisationNumber: string;
  /** SAN dNSNames, plus CN if it looks like a host name; lowercase, no duplicates */
  domains: readonly string[];
  /** lowercase hex, no sign-padding zero byte */
  serialNumber: string;
  /** issuer DN as a string */
  issuer: string;
  notBefore: Date;
  notAfter: Date;
}

export type CertificateProblem = { code: "CERTIFICATE_INVALID"; reason: string };

export type ParseTppCertificateResult =
  | { ok: true; identity: TppIdentity }
  | { ok: false; problem: CertificateProblem };

export const OID_ORGANIZATION_IDENTIFIER = "2.5.4.97";
const OID_SUBJECT_ALT_NAME = "2.5.29.17";

/** GEN-5.2.1-3: "PSD" + NCA country + "-" + NCA code + "-" + authorisation number. */
export const ORGANIZATION_IDENTIFIER_PATTERN = /^PSD([A-Z]{2})-([A-Z]{2,8})-(.+)$/;
/** GEN-5.2.3-2 */
export const NCA_ID_PATTERN = /^[A-Z]{2}-[A-Z]{2,8}$/;

/** Real certificates are a few KiB; the cap keeps hostile input cheap to reject. */
const MAX_CERTIFICATE_BYTES = 64 * 1024;

const HOST_NAME = /^(?=.{1,253}$)(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function invalid(reason: string): ParseTppCertificateResult {
  return { ok: false, problem: { code: "CERTIFICATE_INVALID", reason } };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sequenceItems(block: asn1js.BaseBlock | undefined): asn1js.BaseBlock[] | null {
  return block instanceof asn1js.Sequence ? block.valueBlock.value : null;
}

/**
 * Extensions read straight from the DER rather than through @peculiar/x509, whose typed
 * extension classes throw on content they do not support (e.g. an unknown SAN otherName),
 * which would make one odd extension hide the whole certificate.
 */
function readExtensions(der: Uint8Array): Map<string, Uint8Array[]> | string {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) return "not DER: " + (parsed.result.error || "cannot decode");
  if (parsed.offset !== der.byteLength) return "trailing bytes after the certificate";
  const tbs = sequenceItems(parsed.result)?.[0];
  const tbsItems = sequenceItems(tbs);
  if (!tbsItems) return "not an X.509 certificate";
  const tagged = tbsItems.find((b) => b.idBlock.tagClass === 3 && b.idBlock.tagNumber === 3);
  const out = new Map<string, Uint8Array[]>();
  if (!tagged) return out;
  const list = tagged instanceof asn1js.Constructed ? tagged.valueBlock.value[0] : undefined;
  const extensions = sequenceItems(list);
  if (!extensions) return "malformed extensions";
  for (const ext of extensions) {
    const parts = sequenceItems(ext);
    const id = parts?.[0];
    const value = parts?.[parts.length - 1];
    if (!(id instanceof asn1js.ObjectIdentifier) || !(value instanceof asn1js.OctetString)) {
      return "malformed extension";
    }
    const oid = id.getValue();
    out.set(oid, [...(out.get(oid) ?? []), value.valueBlock.valueHexView]);
  }
  return out;
}

/** dNSName entries ([2] IA5String) of GeneralNames; other name forms are not domains. */
function dnsNames(sanValue: Uint8Array): string[] | string {
  const parsed = asn1js.fromBER(sanValue);
  const names = parsed.offset === sanValue.byteLength ? sequenceItems(parsed.result) : null;
  if (!names) return "malformed subjectAltName";
  const out: string[] = [];
  for (const name of names) {
    if (name.idBlock.tagClass !== 3 || name.idBlock.tagNumber !== 2) continue;
    if (!(name instanceof asn1js.Primitive)) return "malformed subjectAltName dNSName";
    const bytes = name.valueBlock.valueHexView;
    if (bytes.some((b) => b < 0x21 || b > 0x7e)) return "subjectAltName dNSName is not ASCII";
    out.push(Buffer.from(bytes).toString("latin1"));
  }
  return out;
}

function domainsOf(sanValues: Uint8Array[] | undefined, cn: string | undefined): string[] | string {
  if (sanValues && sanValues.length > 1) return "more than one subjectAltName extension";
  const names = sanValues?.[0] ? dnsNames(sanValues[0]) : [];
  if (typeof names === "string") return names;
  const candidates = cn !== undefined && HOST_NAME.test(cn.toLowerCase()) ? [...names, cn] : names;
  return [...new Set(candidates.map((n) => n.toLowerCase()))];
}

interface OrganizationIdentifier { country: string; nca: string; authorisationNumber: string }

function parseOrganizationIdentifier(value: string): OrganizationIdentifier | null {
  const m = ORGANIZATION_IDENTIFIER_PATTERN.exec(value);
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined) return null;
  return { country: m[1], nca: m[2], authorisationNumber: m[3] };
}

function psd2Statement(extensions: Map<string, Uint8Array[]>): Psd2QcStatement | string {
  const values = extensions.get(OID_QC_STATEMENTS) ?? [];
  const value = values[0];
  if (!value) return "no qcStatements extension (1.3.6.1.5.5.7.1.3)";
  if (values.length > 1) return "more than one qcStatements extension";
  const copy = value.slice().buffer;
  const psd2 = decodePsd2QcStatement(copy);
  if ("error" in psd2) return psd2.error;
  if (!NCA_ID_PATTERN.test(psd2.ncaId)) {
    return `nCAId ${quote(psd2.ncaId)} does not match ${NCA_ID_PATTERN.source}`;
  }
  if (psd2.ncaName.length === 0) return "nCAName is empty";
  return psd2;
}

function lowercaseSerial(hex: string): string {
  return hex.toLowerCase().replace(/^(00)+(?=..)/, "");
}

function buildIdentity(der: Uint8Array): TppIdentity | string {
  if (der.byteLength === 0) return "empty certificate";
  if (der.byteLength > MAX_CERTIFICATE_BYTES) return "certificate is too large";
  const extensions = readExtensions(der);
  if (typeof extensions === "string") return extensions;
  const cert = new x509.X509Certificate(der.slice());
  const psd2 = psd2Statement(extensions);
  if (typeof psd2 === "string") return psd2;
  const orgIds = cert.subjectName.getField(OID_ORGANIZATION_IDENTIFIER);
  const id = orgIds[0];
  if (id === undefined) return "subject has no organizationIdentifier (2.5.4.97)";
  if (orgIds.length > 1) return "subject has more than one organizationIdentifier";
  const org = parseOrganizationIdentifier(id);
  if (!org) {
    const pattern = ORGANIZATION_IDENTIFIER_PATTERN.source;
    return `organizationIdentifier ${quote(id)} does not match ${pattern}`;
  }
  if (psd2.ncaId !== `${org.country}-${org.nca}`) {
    return `nCAId ${quote(psd2.ncaId)} disagrees with organizationIdentifier ${quote(id)}`;
  }
  const cn = cert.subjectName.getField("CN")[0];
  const domains = domainsOf(extensions.get(OID_SUBJECT_ALT_NAME), cn);
  if (typeof domains === "string") return domains;
  return {
    id,
    name: cert.subjectName.getField("O")[0] ?? cn ?? id,
    roles: psd2.roles,
    ncaId: psd2.ncaId,
    ncaName: psd2.ncaName,
    authorisationNumber: org.authorisationNumber,
    domains,
    serialNumber: lowercaseSerial(cert.serialNumber),
    issuer: cert.issuer,
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
  };
}

/** Reads the TPP identity from a DER certificate, e.g. `socket.getPeerX509Certificate().raw`. */
export function parseTppCertificate(der: Uint8Array): ParseTppCertificateResult {
  try {
    const identity = buildIdentity(der);
    if (typeof identity === "string") return invalid(identity);
    return { ok: true, identity };
  } catch (err) {
    return invalid(`not a parseable X.509 certificate: ${message(err)}`);
  }
}
