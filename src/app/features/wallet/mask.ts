// Payout numbers on screen: only the last 4 characters show, as the server masks bank account numbers
// ("******1234"), so a PayNow number is never read off the screen over a shoulder.

/** A PayNow mobile number ("+65 ****5678") or UEN ("*****123K") with all but its last 4 characters hidden. */
export function maskPaynow(paynow: string, type: 'mobile' | 'uen' | '' = ''): string {
  const plain = paynow.replace(/\s+/g, '');
  const digits = type === 'mobile' ? plain.replace(/^\+?65(?=\d{8}$)/, '') : plain;
  const masked = digits.length <= 4 ? digits : '*'.repeat(digits.length - 4) + digits.slice(-4);
  return type === 'mobile' ? `+65 ${masked}` : masked;
}
