import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostOf, resolveChecked, type Address, type NameLookup } from './address';

// One try of a delivery over HTTP: the URL's host resolved and checked (address.ts), then a connection to
// that checked address with the URL's own Host header and TLS name (SNI and certificate check), within a
// time limit that starts before the name is looked up, so a resolver that never answers holds a sender no
// longer than a receiver that never answers. Redirects are not followed (a 3xx is a failed try): a redirect could point anywhere.

export interface TryResult {
  /** The receiver's status; 0 when there was no answer. */
  status: number;
  latencyMs: number;
  error: string | null;
}

/** The answer's body is read (so the connection ends cleanly) up to this many bytes and dropped. */
const BODY_MAX = 64 * 1024;

function pinned(address: Address): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
}

export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean; lookupName?: NameLookup },
): Promise<TryResult> {
  const started = performance.now();
  const deadline = started + opts.timeoutMs;
  const done = (status: number, error: string | null): TryResult => ({ status, latencyMs: Math.round(performance.now() - started), error });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return done(0, 'url_invalid');
  }
  if (u.protocol !== 'https:' && !(opts.allowPrivate && u.protocol === 'http:')) return done(0, 'https_required');
  let lookupTimer: NodeJS.Timeout | undefined;
  const resolved = await Promise.race([
    resolveChecked(hostOf(u), opts.allowPrivate, opts.lookupName),
    new Promise<'timeout'>((resolve) => {
      lookupTimer = setTimeout(() => resolve('timeout'), opts.timeoutMs);
    }),
  ]);
  clearTimeout(lookupTimer);
  if (resolved === 'timeout') return done(0, 'timeout');
  if (!resolved.ok) return done(0, resolved.error);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise<TryResult>((resolve) => {
    let settled = false;
    const finish = (status: number, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(status, error));
    };
    const req = client.request(
      u,
      {
        method: 'POST',
        agent: false,
        lookup: pinned(resolved.address),
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Canopy-Webhooks/1' },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > BODY_MAX) res.destroy();
        });
        const status = res.statusCode ?? 0;
        res.on('end', () => finish(status, null));
        res.on('close', () => finish(status, null));
        res.on('error', () => finish(status, null));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(0, 'timeout');
    }, Math.max(0, deadline - performance.now()));
    req.on('error', (err: NodeJS.ErrnoException) => finish(0, err.code === 'ECONNREFUSED' ? 'connection_refused' : 'connection_failed'));
    req.end(body);
  });
}
