import type { AuthenticationResponseJSON, AuthenticatorTransport } from '@simplewebauthn/server';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import type { LimitName } from '../../lib/limits';
import { signInRefusal, signedIn } from '../auth/service';
import { PASSKEY_PROMPT_TIMEOUT_MS } from '../../../shared/constants';
import type { LoginInfo } from '../../../shared/schemas/auth';
import { challengeBytes, keepChallenge, refusedBy, takeChallenge, type RelyingParty, webauthn } from './relying-party';

// Signing in with a passkey (docs/product.md#passkeys). It is a login for every rule: the same throttle per
// address, the same refusals of a disabled or login-locked account, and the session a password login opens
// (auth/service.ts signedIn), which a password change, a reset or a lock ends like any other.

/** Options for a discoverable sign-in: no account named, the authenticator offers the passkeys it holds
 *  for our RP ID. Counted in the public per-address budget: anyone may ask, each ask keeps a row. */
export async function signInOptions(deps: Deps, ip: string, rp: RelyingParty) {
  await deps.limits.consume([['public_ip', ip]]);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    challenge: challengeBytes(),
    timeout: PASSKEY_PROMPT_TIMEOUT_MS,
    userVerification: 'required',
  });
  await keepChallenge(deps, options.challenge, 'login', null);
  return options;
}

/** Checks the assertion and opens a session. Every failure of the passkey itself (unknown, removed, another
 *  origin or RP ID, a used or expired challenge, a counter that went back, a bad signature) is the one
 *  refusal passkey_failed, which keeps its point of the address's login throttle. */
export async function passkeySignIn(deps: Deps, credential: AuthenticationResponseJSON, ip: string, rp: RelyingParty): Promise<LoginInfo> {
  const checks: Array<[LimitName, string]> = [['login_ip', ip]];
  await deps.limits.consume(checks);
  const taken = await takeChallenge(deps, credential.response.clientDataJSON, 'login');
  const key = taken && (await deps.db.selectFrom('passkeys').selectAll().where('credential_id', '=', credential.id).executeTakeFirst());
  if (!taken || !key) throw new AppError('passkey_failed');
  const { rpID, origin } = rp;
  const { verifyAuthenticationResponse } = await webauthn();
  const verified = await verifyAuthenticationResponse({
    response: credential,
    expectedChallenge: taken.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: key.credential_id, publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')), counter: key.counter, transports: key.transports ? (key.transports.split(',') as AuthenticatorTransport[]) : [] },
    requireUserVerification: true,
  }).catch(refusedBy('passkey_failed'));
  const handle = credential.response.userHandle;
  // A discoverable passkey names the account it was made for: it must be the one the key is kept under.
  if (!verified.verified || (handle && handle !== key.user_handle)) throw new AppError('passkey_failed');
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', key.user_id).executeTakeFirstOrThrow();
  const refused = signInRefusal(user);
  if (refused) {
    await deps.limits.reward(checks);
    throw new AppError(refused);
  }
  // The counter moves only from the value this sign-in checked against: of two uses racing with the same
  // counter, one wins. A removal meanwhile leaves nothing to update.
  const moved = await deps.db
    .updateTable('passkeys')
    .set({ counter: verified.authenticationInfo.newCounter, last_used_at: deps.clock.now() })
    .where('id', '=', key.id)
    .where('counter', '=', key.counter)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new AppError('passkey_failed');
  await deps.limits.reward(checks);
  return signedIn(deps, user);
}
