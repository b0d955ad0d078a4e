import { randomBytes } from 'node:crypto';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { hmac, serverSecret } from '../../lib/secret';
import { PASSKEY_CHALLENGE_TTL_MS } from '../../../shared/constants';

// Who we are to an authenticator, and the challenges we hand out (docs/decisions/0034-passkeys.md).

/** COSE ES256 and RS256: what platform authenticators and security keys make. */
export const PASSKEY_ALGORITHMS = [-7, -257];

/** The relying party: RP ID and origin from PUBLIC_URL, never from a request's Host or Origin, so every
 *  instance behind the one address agrees and a forged header cannot name another site. server.ts fills
 *  PUBLIC_URL in at start when unset, so this is read per request. */
export function relyingParty(deps: Deps): { rpID: string; origin: string } {
  const url = new URL(deps.config.PUBLIC_URL ?? `http://localhost:${deps.config.PORT}`);
  return { rpID: url.hostname, origin: url.origin };
}

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
