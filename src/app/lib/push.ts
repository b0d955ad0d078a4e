import { get, newIdempotencyKey, post, type ApiResult } from './api';
import { PATHS } from '../../shared/api';
import type { PushDevices, PushKey } from '../../shared/schemas/push';

// Web Push on this device (docs/product.md#notifications, docs/decisions/0033-web-push.md): the browser's
// permission is asked only when the member taps the switch, never on load. On: the service worker's push
// subscription (made with the server's VAPID key) is sent to the server, which pushes every new notice to
// it; off: the server forgets this device and the browser drops the subscription, other devices keep theirs.
// The service worker (public/push-sw.js) shows each push and opens its screen on a tap.

export type PushState = 'on' | 'off' | 'denied' | 'unsupported';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** What the switch shows: on when this browser holds a subscription and may show notifications. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted') return 'off';
  return (await currentSubscription()) ? 'on' : 'off';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The subscription's endpoint and keys, as the server takes them. */
function wire(sub: PushSubscription): Record<string, unknown> {
  const json = sub.toJSON();
  return { endpoint: json.endpoint, keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth } };
}

/** How long the browser has to make its push subscription: it asks its push service (FCM, Mozilla's,
 *  Apple's), and on a network that blocks that service the call never settles, leaving the switch busy for
 *  ever. Past it the switch is usable again and says why. */
export const PUSH_SUBSCRIBE_LIMIT_MS = 15_000;

const TIMED_OUT = Symbol('timed out');

/** `work`, or TIMED_OUT once `ms` have passed without its answer (the work itself cannot be cancelled). */
function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** Turns notifications on for this device: asks the permission (the caller runs it from a tap). 'timeout':
 *  the browser's push service did not answer within PUSH_SUBSCRIBE_LIMIT_MS. */
export async function enablePush(): Promise<ApiResult<PushDevices> | 'denied' | 'unsupported' | 'timeout'> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const key = await get<PushKey>(PATHS.pushKey);
  if (key.code !== 0 || !key.data) return key as unknown as ApiResult<PushDevices>;
  const publicKey = key.data.public_key;
  const subscribed = await within(
    (async () => {
      const reg = await navigator.serviceWorker.ready;
      return (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    })(),
    PUSH_SUBSCRIBE_LIMIT_MS,
  );
  if (subscribed === TIMED_OUT) return 'timeout';
  const sub = subscribed;
  const res = await post<PushDevices>(PATHS.pushSubscribe, wire(sub), { idempotencyKey: newIdempotencyKey() });
  // A subscription the server refused is no use to keep.
  if (res.code !== 0 && res.code !== -1) await sub.unsubscribe();
  return res;
}

/** Turns notifications off for this device only. False when the server could not be told (the device
 *  keeps its subscription, so the switch stays on and a retry can tell it). */
export async function disablePush(): Promise<boolean> {
  if (!pushSupported()) return true;
  const sub = await currentSubscription();
  if (!sub) return true;
  const res = await post(PATHS.pushUnsubscribe, { endpoint: sub.endpoint }, { idempotencyKey: newIdempotencyKey(), quiet: true });
  if (res.code !== 0) return false;
  await sub.unsubscribe();
  return true;
}

/** Tells the server this device's subscription again (after sign-in on a device that has one, or a
 *  language change: pushes come in the language of this request). Quiet: nothing to show. */
export async function resyncPush(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const sub = await currentSubscription();
  if (sub) await post(PATHS.pushSubscribe, wire(sub), { idempotencyKey: newIdempotencyKey(), quiet: true });
}
