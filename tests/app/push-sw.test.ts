// The service worker's push script (public/push-sw.js) opens only a screen of this app: a notice's address
// that browsers would read as another host (`//host`, `/\host`, an absolute URL) opens the inbox instead.
// The script runs in a sandbox standing in for the worker's global scope.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { expect, it } from 'vitest';

const ORIGIN = 'https://canopy.example.sg';
const INBOX = `${ORIGIN}/pages/profile/notifications`;

type Listener = (event: Record<string, unknown>) => void;

/** Loads the script into a fresh worker scope; returns the page a push with `url` opens when tapped. */
async function opens(url: unknown): Promise<string> {
  const listeners: Record<string, Listener> = {};
  let shown: { data: { url: unknown } } | undefined;
  let opened = '';
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, fn: Listener) => (listeners[type] = fn),
    registration: { showNotification: (_title: string, options: { data: { url: unknown } }) => ((shown = options), Promise.resolve()) },
    clients: { matchAll: () => Promise.resolve([]), openWindow: (target: string) => ((opened = target), Promise.resolve(null)) },
  };
  vm.runInNewContext(fs.readFileSync(path.resolve('public/push-sw.js'), 'utf8'), { self, navigator: {}, URL });
  const waits: Promise<unknown>[] = [];
  listeners.push!({ data: { json: () => ({ title: 'T', body: 'B', id: 1, url }) }, waitUntil: (p: Promise<unknown>) => waits.push(p) });
  listeners.notificationclick!({ notification: { close: () => undefined, data: shown!.data }, waitUntil: (p: Promise<unknown>) => waits.push(p) });
  await Promise.all(waits);
  return opened;
}

it("opens the app's own screens", async () => {
  expect(await opens('/pages/orders/detail?id=7')).toBe(`${ORIGIN}/pages/orders/detail?id=7`);
  expect(await opens('/pages/profile/notifications')).toBe(INBOX);
});

it("opens the inbox for any address browsers read as another host's", async () => {
  for (const url of ['//evil.example', '/\\evil.example', '/\\/evil.example', '/\t/evil.example', '/\n/evil.example', '\\\\evil.example', 'https://evil.example/x', 'javascript:alert(1)', ' /x', '', 42, null]) {
    expect(await opens(url), String(url)).toBe(INBOX);
  }
});
