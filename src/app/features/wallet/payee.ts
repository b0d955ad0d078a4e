// The platform's bank account shown for a bank-transfer top-up. Fictional: Canopy is a demo company. The
// account holder is the legal entity from baseconfig (useCompany), the name the receipts carry.
export const PLATFORM_BANK = { bank: 'DBS Bank Ltd', account: '072-123456-7' } as const;
