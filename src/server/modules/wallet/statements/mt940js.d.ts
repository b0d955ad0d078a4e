// mt940js ships no types; the part of its API the MT940 statement parser uses.
declare module 'mt940js' {
  export interface Mt940Transaction {
    date: Date;
    amount: number;
    isReversal: boolean;
    currency: string;
    details: string;
    transactionType: string;
    reference: string;
    entryDate?: Date;
    bankReference?: string;
    extraDetails?: string;
  }
  export interface Mt940Statement {
    transactionReference: string;
    accountIdentification: string;
    currency: string;
    openingBalance: number;
    closingBalance: number;
    transactions: Mt940Transaction[];
  }
  export class Parser {
    parse(text: string): Mt940Statement[];
  }
  const mt940: { Parser: typeof Parser };
  export default mt940;
}
