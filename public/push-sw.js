// Web Push in the service worker (docs/decisions/0033-web-push.md), loaded by the generated sw.js
// (vite.config.ts workbox.importScripts). A push is one notice, decrypted by the browser: its title and
// body in the language of the device, the app screen it opens and the member's unread count, which becomes
// the app icon's badge. A notice's tag is its id, so a push delivered twice shows once. A tap opens the
// screen in the app's window (or a new one).

const INBOX = '/pages/profile/notifications';

/** A path of this app, never another origin's address: one '/' then neither '/' nor '\' (browsers read
 *  `//host` and `/\host` as another host), and still this origin once resolved (the URL parser drops tabs
 *  and newlines, so `/\t/host` would pass the first test alone). */
function screenOf(url) {
  if (typeof url !== 'string' || !/^\/(?![/\\])/.test(url)) return INBOX;
  try {
    const resolved = new URL(url, self.location.origin);
    return resolved.origin === self.location.origin ? resolved.pathname + resolved.search + resolved.hash : INBOX;
  } catch {
    return INBOX;
  }
}

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Canopy';
  const work = [
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: data.id ? `notice-${data.id}` : undefined,
      icon: '/icons/icon-192.png',
      data: { url: screenOf(data.url) },
    }),
  ];
  if (typeof data.unread === 'number' && 'setAppBadge' in navigator) {
    work.push((data.unread > 0 ? navigator.setAppBadge(data.unread) : navigator.clearAppBadge()).catch(() => undefined));
  }
  event.waitUntil(Promise.all(work));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(screenOf(event.notification.data && event.notification.data.url), self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin !== self.location.origin) continue;
        // Focus needs the tap's permission; the screen opens whether or not it was given.
        await client.focus().catch(() => undefined);
        const opened = await client.navigate(target).catch(() => null);
        if (opened) return opened;
      }
      return self.clients.openWindow(target);
    })(),
  );
});
