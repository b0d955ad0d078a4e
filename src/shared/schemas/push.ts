import * as v from 'valibot';
import { int } from './common';

// Web Push subscriptions (docs/decisions/0033-web-push.md): one per device, the PushSubscription's
// endpoint and keys as the browser gives them (PushSubscription.toJSON()). The device reads its pushes in
// the language of the request that turned them on (`lang`, as every request carries it). Every message is a
// catalogue key.

const base64url = (min: number, max: number) => v.pipe(v.string('invalid_request'), v.regex(/^[A-Za-z0-9_-]+={0,2}$/, 'invalid_request'), v.minLength(min, 'invalid_request'), v.maxLength(max, 'invalid_request'));
const endpoint = v.pipe(v.string('invalid_request'), v.maxLength(2048, 'invalid_request'), v.url('invalid_request'));

/** POST user/push/subscribe: turns notifications on for this device (again: its keys and language change). */
export const pushSubscribeSchema = v.object({
  endpoint,
  // p256dh: an uncompressed P-256 point, 65 bytes (87 characters); auth: 16 bytes (22 characters).
  keys: v.strictObject({ p256dh: base64url(86, 90), auth: base64url(21, 26) }, 'invalid_request'),
});
export type PushSubscribeInput = v.InferOutput<typeof pushSubscribeSchema> & { lang: 'en' | 'cn' };

/** POST user/push/unsubscribe: turns notifications off for this device only. */
export const pushUnsubscribeSchema = v.object({ endpoint });

/** GET user/push/key: the public VAPID key the browser subscribes with (applicationServerKey). */
export const pushKeySchema = v.strictObject({ public_key: v.string() });
export type PushKey = v.InferOutput<typeof pushKeySchema>;

/** The answer of subscribe and unsubscribe: how many devices the caller (the person, for the account the
 *  session acts for) turned notifications on for. */
export const pushDevicesSchema = v.strictObject({ devices: int() });
export type PushDevices = v.InferOutput<typeof pushDevicesSchema>;
