// The platform's own receiving accounts shown on the top-up screen. Fictional: Canopy is a demo company;
// a deployment would serve its real details from the server's config.
export const PLATFORM_PAYEE = {
  paynow: { name: 'Canopy Pte. Ltd.', uen: '202612345K' },
  bank: { name: 'Canopy Pte. Ltd.', bank: 'DBS Bank Ltd', account: '072-123456-7' },
} as const;
