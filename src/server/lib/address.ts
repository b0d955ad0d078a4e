// Client addresses: which one a request comes from behind trusted proxies, and the key it is counted by.

/** The key an address is throttled by: an IPv4 address as it is (IPv4-mapped IPv6 too), an IPv6 address by
 *  its /64 prefix: one customer line gets a whole /64 and could otherwise take a fresh address per guess. */
export function ipKey(address: string): string {
  const a = address.trim().toLowerCase().replace(/^\[|\]$/g, '').split('%')[0]!;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return mapped[1]!;
  if (!a.includes(':')) return a;
  const [head = '', tail] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t] : h;
  if (groups.length < 4 || groups.slice(0, 4).some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return a;
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

export function addressOf(peer: string, forwardedFor: string | undefined, trustedHops: number): string {
  if (trustedHops <= 0 || !forwardedFor) return peer;
  const hops = forwardedFor.split(',').map((x) => x.trim()).filter(Boolean);
  if (hops.length === 0) return peer;
  return hops[Math.max(0, hops.length - trustedHops)]!;
}
