/** The package ships no types; this is the part of its API the statement file tests use. */
declare module "mt940js" {
  interface Mt940Transaction {
    date: Date; entryDate?: Date; amount: number; currency: string; details: string;
    transactionType: string; reference: string; bankReference?: string;
  }
  interface Mt940Statement {
    transactionReference: string; accountIdentification: string; currency: string;
    openingBalance: number; closingBalance: number; transactions: Mt940Transaction[];
  }
  export class Parser {
    parse(text: string): Mt940Statement[];
  }
}
