import { randomBytes } from 'node:crypto';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { hmac, serverSecret } from '../../lib/secret';
import { PASSKEY_CHALLENGE_TTL_MS } from '../../../shared/constants';
import { isIpHost } from '../../../shared/hosts';
import type { Config } from '../../config';

// Who we are to an authenticator, and the challenges we hand out (docs/decisions/0034-passkeys.md).

/** The WebAuthn library, loaded by the first passkey request: with its X.509 and ASN.1 packages it is a few
 *  hundred modules, which a start need not wait for (docs/operations.md#restarts). */
export const webauthn = () => import('@simplewebauthn/server');

/** COSE ES256 and RS256: what platform authenticators and security keys make. */
export const PASSKEY_ALGORITHMS = [-7, -257];

export interface RelyingParty {
  rpID: string;
  origin: string;
}

/** The page a request comes from, as its headers name it. */
export interface PageOf {
  origin?: string;
  host?: string;
}

/** The relying party of a request. With PUBLIC_URL configured: its host name and origin, never a request's
 *  Origin or Host, so every instance behind the one address agrees and a forged header cannot name another
 *  site. Without it (server.ts fills PUBLIC_URL in with the listening address, often an IP address, which
 *  browsers refuse as an RP ID): the page's own origin (its Origin header, else its Host), when it is one
 *  the server answers at (the listening origins, localhost among them, or ALLOWED_ORIGINS). An IP address
 *  is no RP ID: passkey_needs_name, before anything is counted or kept. */
export function relyingParty(deps: Deps, page: PageOf = {}): RelyingParty {
  const config = deps.config;
  let url = new URL(config.PUBLIC_URL ?? `http://localhost:${config.PORT}`);
  if (config.PUBLIC_URL_DERIVED) {
    const asked = originOf(page.origin ?? (page.host ? `http://${page.host}` : undefined));
    if (asked && config.ALLOWED_ORIGINS.some((o) => originOf(o) === asked)) url = new URL(asked);
  }
  if (isIpHost(url.hostname)) throw new AppError('passkey_needs_name');
  return { rpID: url.hostname, origin: url.origin };
}

function originOf(text: string | undefined): string | null {
  if (!text) return null;
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}

/** The line main.ts prints once at start about passkeys, or null when PUBLIC_URL names a host (nothing to
 *  say): where they work without PUBLIC_URL, or that they cannot. */
export function passkeyStartNote(config: Pick<Config, 'PUBLIC_URL' | 'PUBLIC_URL_DERIVED' | 'HOST' | 'PORT'>): string | null {
  if (!config.PUBLIC_URL) return null;
  const url = new URL(config.PUBLIC_URL);
  if (!config.PUBLIC_URL_DERIVED) {
    return isIpHost(url.hostname) ? `PUBLIC_URL names an IP address (${url.hostname}): passkeys cannot work there (browsers refuse an IP address as their RP ID); set PUBLIC_URL to a host name.` : null;
  }
  if (!isIpHost(url.hostname)) return null;
  if (LOOPBACK_OR_ANY.has(config.HOST)) return `Passkeys work at http://localhost:${url.port} (a host name); browsers refuse them at an IP address such as ${url.hostname}.`;
  return `Passkeys cannot work: the server answers only at the IP address ${config.HOST}, which browsers refuse as their RP ID; set PUBLIC_URL to a host name.`;
}

/** HOST values at which the server also answers http://localhost. */
const LOOPBACK_OR_ANY = new Set(['127.0.0.1', '::1', '0.0.0.0', '::', 'localhost']);

/** The WebAuthn user handle of a member: one account is one user to the authenticator, and derived with
 *  the server key it does not show the account's number to the device. Each passkey keeps the handle it
 *  was made for, so a rotated key (docs/operations.md) leaves the passkeys already made working. */
export function userHandle(deps: Deps, userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(hmac(serverSecret(deps.config), `passkey-user:${userId}`).slice(0, 32), 'hex'));
}

/** A fresh challenge (32 random bytes), which the options generator encodes. */
export const challengeBytes = (): Uint8Array<ArrayBuffer> => new Uint8Array(randomBytes(32));

/** Keeps a challenge handed out, in the database so that any instance can take it; drops the expired ones. */
export async function keepChallenge(deps: Deps, challenge: string, purpose: 'register' | 'login', userId: number | null): Promise<void> {
  const now = deps.clock.now();
  await deps.db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
  await deps.db.insertInto('passkey_challenges').values({ challenge, purpose, user_id: userId, expires_at: now + PASSKEY_CHALLENGE_TTL_MS }).execute();
}

/** The challenge a response signed (read from its clientDataJSON), taken: the delete that finds it is the
 *  only use it ever has, so a replayed response, or the same one sent twice at once, finds none. Null when
 *  it was never handed out, already used, expired, or handed out for the other purpose. */
export async function takeChallenge(deps: Deps, clientDataJSON: string, purpose: 'register' | 'login'): Promise<{ challenge: string; userId: number | null } | null> {
  const challenge = signedChallenge(clientDataJSON);
  if (challenge === null) return null;
  const row = await deps.db
    .deleteFrom('passkey_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', deps.clock.now())
    .returning('user_id')
    .executeTakeFirst();
  return row ? { challenge, userId: row.user_id } : null;
}

function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 200 ? data.challenge : null;
  } catch {
    return null;
  }
}

/** A refusal of a passkey step: the library's reason (which check failed) is not told to the caller. */
export function refusedBy(key: 'passkey_failed' | 'passkey_not_added') {
  return (err: unknown): never => {
    throw err instanceof AppError ? err : new AppError(key);
  };
}
