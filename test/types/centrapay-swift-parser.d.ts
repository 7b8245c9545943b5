/** The package ships no types; this is the part of its API the statement file tests use. */
declare module "@centrapay/swift-parser" {
  /** bignumber.js values: exact decimals, read here through toFixed. */
  interface Decimal { toFixed(decimals: number): string }
  interface SwiftTransaction { amount: Decimal; reference: string; bankReference: string }
  interface SwiftStatement {
    transactionReference: string; accountIdentification: string; transactions: SwiftTransaction[];
  }
  function parse(options: { type: "mt940" | "mt942"; data: string }): SwiftStatement[];
  const parser: { parse: typeof parse };
  export default parser;
}
