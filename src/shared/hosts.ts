// Whether a page's host is an IP address: browsers refuse an IP address as a passkey's RP ID, so the
// server refuses passkeys there and the app hides or explains them (docs/product.md#passkeys).

/** True for an IPv4 address or an IPv6 literal (bracketed as in a URL, or bare). */
export function isIpHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h.includes(':')) return true;
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(h);
}
