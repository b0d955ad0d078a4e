import { createPublicKey } from 'node:crypto';
import { writeTx, type EffectRecord, type Tx } from '../../db/tx';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { vapidKeys } from '../../lib/vapid';
import { pushEndpointAllowed } from '../../live/push-sender';
import type { User } from '../session';
import type { PushDevices, PushKey, PushSubscribeInput } from '../../../shared/schemas/push';

// A member's devices that receive notices as Web Push (docs/product.md#notifications,
// docs/decisions/0033-web-push.md). One row per device: the push service's endpoint names it. Turning
// notifications on again updates the device's keys and language; a device another account had turned on
// (a shared phone) moves to this account with none of the other's pending pushes. Turning them off removes
// this device only. An organisation's devices are each their person's (docs/decisions/0040-per-person-scopes.md):
// the cap counts a person's devices for the account, and a member turns off only a device she turned on.

/** Devices one person keeps for one account at most: a new one beyond it replaces her own turned on longest
 *  ago, never a colleague's. */
export const MAX_PUSH_DEVICES = 20;

export function pushKey(deps: Deps): PushKey {
  const keys = vapidKeys(deps.config);
  // Loaded by startServer before it listens; an app built without it (some tests) has no push.
  if (!keys) throw new Error('the VAPID keys are not loaded (startServer loads them)');
  return { public_key: keys.publicKey };
}

/** The devices `personId` turned the notices of `userId` on for. */
async function devicesOf(tx: Tx, userId: number, personId: number): Promise<number> {
  const row = await tx.selectFrom('push_subscriptions').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).where('person_id', '=', personId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function removeDevices(tx: Tx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.deleteFrom('push_queue').where('subscription_id', 'in', ids).execute();
  await tx.deleteFrom('push_subscriptions').where('id', 'in', ids).execute();
}

/** Whether the device's keys are ones a push can be encrypted for (RFC 8291): p256dh a point on P-256
 *  (uncompressed, 65 bytes), auth 16 bytes. Keys that are not would fail every push sent to the device. */
function deviceKeysValid(keys: PushSubscribeInput['keys']): boolean {
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4 || Buffer.from(keys.auth, 'base64url').length !== 16) return false;
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/** Turns notices of `user` (the account the request acts as) on for a device, recording `person`, who
 *  turned it on: removing her from an organisation, or her password change, ends the device. */
export async function subscribePush(deps: Deps, user: User, person: User, input: PushSubscribeInput, record?: EffectRecord): Promise<PushDevices> {
  if (!pushEndpointAllowed(input.endpoint, deps.config.PUSH_HOSTS)) throw new AppError('push_endpoint_refused');
  if (!deviceKeysValid(input.keys)) throw new AppError('invalid_request');
  const now = deps.clock.now();
  return writeTx(deps.db, async (tx) => {
    const known = await tx.selectFrom('push_subscriptions').select(['id', 'user_id']).where('endpoint', '=', input.endpoint).executeTakeFirst();
    if (known && known.user_id !== user.id) await removeDevices(tx, [known.id]);
    const values = { user_id: user.id, person_id: person.id, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, lang: input.lang, created_at: now };
    await tx
      .insertInto('push_subscriptions')
      .values(values)
      .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: user.id, person_id: person.id, p256dh: values.p256dh, auth: values.auth, lang: values.lang }))
      .execute();
    const beyond = await tx
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', user.id)
      .where('person_id', '=', person.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(MAX_PUSH_DEVICES)
      .limit(1000)
      .execute();
    await removeDevices(tx, beyond.map((r) => r.id));
    return { devices: await devicesOf(tx, user.id, person.id) };
  }, record);
}

/** Turns off a device `person` turned on for `user`; an endpoint of anyone else's device changes nothing
 *  (answered as an unknown one is, so the answer tells nothing of a colleague's devices). */
export async function unsubscribePush(deps: Deps, user: User, person: User, endpoint: string, record?: EffectRecord): Promise<PushDevices> {
  return writeTx(deps.db, async (tx) => {
    const mine = await tx.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).where('user_id', '=', user.id).where('person_id', '=', person.id).execute();
    await removeDevices(tx, mine.map((r) => r.id));
    return { devices: await devicesOf(tx, user.id, person.id) };
  }, record);
}
