import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Where the server may send a webhook (docs/decisions/0044-webhooks.md): a receiver is an address on the
// internet, never one of the machine, its network or its cloud (metadata at 169.254.169.254). The check is
// made when sending, on every address the name resolves to, and the connection goes to the address checked
// (not to a second lookup's answer), so a name that changes its answer between the check and the connect
// (DNS rebinding) reaches nothing it was not checked for. WEBHOOK_ALLOW_PRIVATE lets loopback through, for
// development and tests; nothing else.

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Not on the internet: this host, private networks, link-local, shared, documentation, multicast and
 *  reserved ranges (IPv4, and IPv6 with IPv4 mapped or translated into it).
 *  ::/96 (IPv4-compatible, ::1 and :: among them) and ::ffff:0:0:0/96 (IPv4-translated) carry an IPv4 address
 *  the mapped-form check would not see, and neither is a public address of their own. */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24],
  ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

export interface Address {
  address: string;
  family: 4 | 6;
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d), to be judged as IPv4. */
function unmapped(a: Address): Address {
  const m = a.family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a.address) : null;
  return m ? { address: m[1]!, family: 4 } : a;
}

/** Whether the server may connect to this address. */
export function addressAllowed(raw: Address, allowLoopback: boolean): boolean {
  const a = unmapped(raw);
  const type = a.family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(a.address, type)) return true;
  return !NOT_PUBLIC.check(a.address, type);
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(u: URL): string {
  return u.hostname.replace(/^\[|\]$/g, '');
}

/** A host that is an address literal, when it is one the server may never send to (checked as the
 *  endpoint is added, for a clear refusal; names are checked when sending). */
export function literalRefused(host: string, allowLoopback: boolean): boolean {
  const family = isIP(host);
  return family !== 0 && !addressAllowed({ address: host, family: family as 4 | 6 }, allowLoopback);
}

export type Resolved = { ok: true; address: Address } | { ok: false; error: 'address_refused' | 'dns_failed' };

/** How a name becomes its addresses: the system resolver, or a test's stand-in. */
export type NameLookup = (host: string) => Promise<Address[]>;

const systemLookup: NameLookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((r) => ({ address: r.address, family: r.family as 4 | 6 }));

/** Every address the host resolves to, checked; the first one to connect to when all pass. */
export async function resolveChecked(host: string, allowLoopback: boolean, lookupName: NameLookup = systemLookup): Promise<Resolved> {
  const family = isIP(host);
  let all: Address[];
  if (family !== 0) all = [{ address: host, family: family as 4 | 6 }];
  else {
    try {
      all = await lookupName(host);
    } catch {
      return { ok: false, error: 'dns_failed' };
    }
  }
  if (all.length === 0) return { ok: false, error: 'dns_failed' };
  if (!all.every((a) => addressAllowed(a, allowLoopback))) return { ok: false, error: 'address_refused' };
  return { ok: true, address: all[0]! };
}
