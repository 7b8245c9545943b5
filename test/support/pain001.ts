/** A pain.001 document as a corporate's software writes it, for tests and the docs' examples. */
import { ALICE_MAIN, EXTERNAL_IBAN } from "./flows.js";

export type Transaction = [amount: string, iban: string, name: string];

export interface Pain001 {
  debtor?: string; txs?: Transaction[]; ctrlSum?: string; batch?: boolean;
}

/** Written by hand, as a corporate's software would, independently of the bank's builder. */
export function pain001(version: "03" | "09", date: string, options: Pain001 = {}): string {
  const { debtor = ALICE_MAIN, batch } = options;
  const txs = options.txs ?? [["1.50", EXTERNAL_IBAN, "Supplier AG"]];
  const cents = txs.reduce((sum, [amount]) => sum + Math.round(Number(amount) * 100), 0);
  const sum = options.ctrlSum ?? (cents / 100).toFixed(2);
  const bic = version === "09" ? "BICFI" : "BIC";
  const transactions = txs.map(([amount, iban, name], i) => `
      <CdtTrfTxInf>
        <PmtId><EndToEndId>E2E-${i}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="EUR">${amount}</InstdAmt></Amt>
        <Cdtr><Nm>${name}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Invoice ${i}</Ustrd></RmtInf>
      </CdtTrfTxInf>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.${version}">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>MSG-1</MsgId><CreDtTm>2026-11-23T10:00:00</CreDtTm>
      <NbOfTxs>${txs.length}</NbOfTxs><CtrlSum>${sum}</CtrlSum>
      <InitgPty><Nm>Alice Schmidt</Nm></InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>PMT-1</PmtInfId><PmtMtd>TRF</PmtMtd>${batch === undefined ? "" : `<BtchBookg>${batch}</BtchBookg>`}
      <NbOfTxs>${txs.length}</NbOfTxs><CtrlSum>${(cents / 100).toFixed(2)}</CtrlSum>
      <PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>
      <ReqdExctnDt>${version === "09" ? `<Dt>${date}</Dt>` : date}</ReqdExctnDt>
      <Dbtr><Nm>Alice Schmidt</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>${debtor}</IBAN></Id></DbtrAcct>
      <DbtrAgt><FinInstnId><${bic}>TESTDEFFXXX</${bic}></FinInstnId></DbtrAgt>
      <ChrgBr>SLEV</ChrgBr>${transactions}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}
