/**
 * The qcStatements certificate extension (RFC 3739) with the PSD2 statement of ETSI TS 119 495:
 * encoding for the development CA, and decoding of untrusted TPP certificates. Decoding never
 * throws: every malformed input becomes `{ error }`.
 */
import * as asn1js from "asn1js";

export type PspRole = "PSP_AS" | "PSP_PI" | "PSP_AI" | "PSP_IC";

export interface Psd2QcStatement {
  roles: PspRole[];
  ncaName: string;
  ncaId: string;
}

export const OID_QC_STATEMENTS = "1.3.6.1.5.5.7.1.3";
export const OID_QC_COMPLIANCE = "0.4.0.1862.1.1";
export const OID_QC_TYPE = "0.4.0.1862.1.6";
export const OID_QC_TYPE_WEB = "0.4.0.1862.1.6.3";
export const OID_PSD2_QC_STATEMENT = "0.4.0.19495.2";

/** TS 119 495 §5.1: each role is an (OID, name) pair and both must name the same role. */
export const PSP_ROLE_OIDS: Readonly<Record<PspRole, string>> = {
  PSP_AS: "0.4.0.19495.1.1",
  PSP_PI: "0.4.0.19495.1.2",
  PSP_AI: "0.4.0.19495.1.3",
  PSP_IC: "0.4.0.19495.1.4",
};

const ROLE_BY_OID: ReadonlyMap<string, PspRole> = new Map(
  (Object.entries(PSP_ROLE_OIDS) as [PspRole, string][]).map(([role, oid]) => [oid, role]),
);

/** Far above any real extension; bounds the work an attacker can make the decoder do. */
const BER_LIMITS = { maxDepth: 16, maxNodes: 4096 } as const;

/**
 * Reasons quote values from untrusted certificates and end up in logs and responses: cap their
 * length and escape control characters.
 */
export function quote(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

function statement(oid: string, info?: asn1js.BaseBlock): asn1js.Sequence {
  const value: asn1js.BaseBlock[] = [new asn1js.ObjectIdentifier({ value: oid })];
  if (info) value.push(info);
  return new asn1js.Sequence({ value });
}

/** DER of the QCStatements SEQUENCE, i.e. the content of the extension's OCTET STRING. */
export function encodeQcStatements(psd2: Psd2QcStatement): ArrayBuffer {
  const roles = psd2.roles.map((role) => new asn1js.Sequence({
    value: [
      new asn1js.ObjectIdentifier({ value: PSP_ROLE_OIDS[role] }),
      new asn1js.Utf8String({ value: role }),
    ],
  }));
  const psd2Type = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: roles }),
      new asn1js.Utf8String({ value: psd2.ncaName }),
      new asn1js.Utf8String({ value: psd2.ncaId }),
    ],
  });
  const qcTypes = new asn1js.Sequence({
    value: [new asn1js.ObjectIdentifier({ value: OID_QC_TYPE_WEB })],
  });
  return new asn1js.Sequence({
    value: [
      statement(OID_QC_COMPLIANCE),
      statement(OID_QC_TYPE, qcTypes),
      statement(OID_PSD2_QC_STATEMENT, psd2Type),
    ],
  }).toBER(false);
}

function children(block: asn1js.AsnType): asn1js.BaseBlock[] | null {
  return block instanceof asn1js.Sequence ? block.valueBlock.value : null;
}

function utf8(block: asn1js.BaseBlock | undefined): string | null {
  return block instanceof asn1js.Utf8String ? block.getValue() : null;
}

/** The OIDs of the statements, for callers that check QcCompliance / QcType as well. */
export function listQcStatementIds(extensionValue: ArrayBuffer): string[] | { error: string } {
  const statements = parseStatements(extensionValue);
  if ("error" in statements) return statements;
  return statements.map((s) => s.id);
}

interface RawStatement { id: string; info: asn1js.BaseBlock | undefined }

function parseStatements(extensionValue: ArrayBuffer): RawStatement[] | { error: string } {
  let parsed: asn1js.FromBerResult;
  try {
    parsed = asn1js.fromBER(extensionValue, BER_LIMITS);
  } catch {
    return { error: "qcStatements is not valid ASN.1" };
  }
  if (parsed.offset === -1) return { error: "qcStatements is not valid ASN.1" };
  if (parsed.offset !== extensionValue.byteLength) {
    return { error: "qcStatements has trailing bytes" };
  }
  const items = children(parsed.result);
  if (!items) return { error: "qcStatements is not a SEQUENCE" };
  const out: RawStatement[] = [];
  for (const item of items) {
    const parts = children(item);
    const id = parts?.[0];
    if (!parts || !(id instanceof asn1js.ObjectIdentifier) || parts.length > 2) {
      return { error: "qcStatements contains a malformed QCStatement" };
    }
    out.push({ id: id.getValue(), info: parts[1] });
  }
  return out;
}

function decodeRole(block: asn1js.BaseBlock): PspRole | { error: string } {
  const pair = children(block);
  const oidBlock = pair?.[0];
  const name = utf8(pair?.[1]);
  if (pair?.length !== 2 || !(oidBlock instanceof asn1js.ObjectIdentifier) || name === null) {
    return { error: "PSD2 statement has a malformed role" };
  }
  const oid = oidBlock.getValue();
  const role = ROLE_BY_OID.get(oid);
  if (!role) return { error: `PSD2 statement has an unknown role OID ${quote(oid).slice(1, -1)}` };
  if (name !== role) {
    return { error: `PSD2 role OID ${oid} (${role}) disagrees with role name ${quote(name)}` };
  }
  return role;
}

function decodePsd2Type(info: asn1js.BaseBlock | undefined): Psd2QcStatement | { error: string } {
  const fields = info === undefined ? null : children(info);
  const roleBlocks = fields?.[0] === undefined ? null : children(fields[0]);
  const ncaName = utf8(fields?.[1]);
  const ncaId = utf8(fields?.[2]);
  if (!fields || fields.length !== 3 || !roleBlocks || ncaName === null || ncaId === null) {
    return { error: "PSD2 statement is not SEQUENCE { rolesOfPSP, nCAName, nCAId }" };
  }
  if (roleBlocks.length === 0) return { error: "PSD2 statement has no roles" };
  const roles: PspRole[] = [];
  for (const block of roleBlocks) {
    const role = decodeRole(block);
    if (typeof role !== "string") return role;
    if (!roles.includes(role)) roles.push(role);
  }
  return { roles, ncaName, ncaId };
}

/**
 * Decodes the PSD2 statement from the qcStatements extension value (the OCTET STRING content).
 * Only structure and role consistency are checked here; nCAId format is the caller's business.
 */
export function decodePsd2QcStatement(
  extensionValue: ArrayBuffer,
): Psd2QcStatement | { error: string } {
  const statements = parseStatements(extensionValue);
  if ("error" in statements) return statements;
  const psd2 = statements.filter((s) => s.id === OID_PSD2_QC_STATEMENT);
  if (psd2.length === 0) return { error: "qcStatements has no PSD2 statement (0.4.0.19495.2)" };
  if (psd2.length > 1) return { error: "qcStatements has more than one PSD2 statement" };
  return decodePsd2Type(psd2[0]?.info);
}
