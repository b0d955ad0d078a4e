import type { AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Selectable } from 'kysely';
import type { Deps } from '../../env';
import type { PasskeysTable } from '../../db/schema';
import { writeTx, type EffectRecord } from '../../db/tx';
import { AppError } from '../../lib/http';
import { isoSgt } from '../../lib/clock';
import { publish } from '../../live/events';
import { checkLoginPassword } from '../user/settings';
import type { User } from '../session';
import { PASSKEY_PROMPT_TIMEOUT_MS, PASSKEYS_PER_USER_MAX } from '../../../shared/constants';
import type { PasskeyItem, PasskeyList } from '../../../shared/schemas/passkey';
import { PASSKEY_ALGORITHMS, challengeBytes, keepChallenge, refusedBy, type RelyingParty, takeChallenge, userHandle, webauthn } from './relying-party';

// A member's passkeys: add, list, remove (docs/product.md#passkeys). Signing in with one is sign-in.ts.

export function passkeyItem(row: Selectable<PasskeysTable>): PasskeyItem {
  return {
    id: row.id,
    name: row.device_name,
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
    last_used_at: row.last_used_at === null ? null : isoSgt(row.last_used_at),
    last_used_at_ms: row.last_used_at,
  };
}

export async function listPasskeys(deps: Deps, userId: number): Promise<PasskeyList> {
  const rows = await deps.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
  return { list: rows.map(passkeyItem) };
}

const countOf = async (deps: Deps, userId: number): Promise<number> =>
  Number((await deps.db.selectFrom('passkeys').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);

/** The options for the browser to make a passkey. The login password comes first (counted toward the login
 *  lock, like every password typed inside a session): whoever holds a stolen session must not turn it into a
 *  passkey that outlives the password change which ends that session. A full list refuses before it. */
export async function registrationOptions(deps: Deps, user: User, password: string, rp: RelyingParty) {
  if ((await countOf(deps, user.id)) >= PASSKEYS_PER_USER_MAX) throw new AppError('passkeys_full', { n: PASSKEYS_PER_USER_MAX });
  await deps.limits.consume([['password_change_account', String(user.id)]]);
  await checkLoginPassword(deps, user, password, 'password_incorrect');
  const { rpID } = rp;
  const existing = await deps.db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', user.id).execute();
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: 'Canopy',
    rpID,
    userName: user.email,
    userID: userHandle(deps, user.id),
    userDisplayName: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email,
    challenge: challengeBytes(),
    timeout: PASSKEY_PROMPT_TIMEOUT_MS,
    attestationType: 'none',
    // The same authenticator twice would be two rows for one key: the browser refuses it.
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    // Discoverable (the sign-in page asks for no email) and verified (a fingerprint, face or PIN).
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  });
  await keepChallenge(deps, options.challenge, 'register', user.id);
  return options;
}

const transportsOf = (text: string): AuthenticatorTransport[] => (text ? (text.split(',') as AuthenticatorTransport[]) : []);

/** Keeps the passkey the authenticator made, under the name the member gave it. The challenge must be one
 *  handed out to this member for adding a passkey, unused and unexpired; the response must come from our
 *  origin and RP ID, with the user verified. */
export async function addPasskey(deps: Deps, user: User, input: { name: string; credential: RegistrationResponseJSON }, rp: RelyingParty, record?: EffectRecord): Promise<PasskeyItem> {
  const taken = await takeChallenge(deps, input.credential.response.clientDataJSON, 'register');
  if (!taken || taken.userId !== user.id) throw new AppError('passkey_not_added');
  const { rpID, origin } = rp;
  const { verifyRegistrationResponse } = await webauthn();
  const verified = await verifyRegistrationResponse({
    response: input.credential,
    expectedChallenge: taken.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  }).catch(refusedBy('passkey_not_added'));
  if (!verified.verified) throw new AppError('passkey_not_added');
  const { credential } = verified.registrationInfo;
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx, w) => {
    const n = Number((await tx.selectFrom('passkeys').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow()).n);
    if (n >= PASSKEYS_PER_USER_MAX) throw new AppError('passkeys_full', { n: PASSKEYS_PER_USER_MAX });
    if (await tx.selectFrom('passkeys').select('id').where('credential_id', '=', credential.id).executeTakeFirst()) throw new AppError('passkey_not_added');
    const row = await tx
      .insertInto('passkeys')
      .values({
        user_id: user.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        user_handle: Buffer.from(userHandle(deps, user.id)).toString('base64url'),
        counter: credential.counter,
        transports: (input.credential.response.transports ?? []).join(','),
        device_name: input.name,
        created_at: now,
        last_used_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // The member's other devices refresh their list (the passkeys screen listens to `user`).
    await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, now);
    return passkeyItem(row);
  }, record);
}

/** Removes one of the member's passkeys: a sign-in with it finds no key from then on. Another member's id
 *  is not found, as an id that never was. */
export async function removePasskey(deps: Deps, user: User, id: number, record?: EffectRecord): Promise<null> {
  return writeTx(deps.db, async (tx, w) => {
    const gone = await tx.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw new AppError('not_found');
    await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, deps.clock.now());
    return null;
  }, record);
}
