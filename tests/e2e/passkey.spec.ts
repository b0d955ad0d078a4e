import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test as base, expect, type Page } from '@playwright/test';
import { E2E_SERVER_ENV, ROOT, freePort, freshDataDir, killServer, spawnServer, type ServerState } from './server-control';
import { errorMessage } from '../../src/shared/errors';
import { E2E_PASSWORD, markStartSeen, shot, storeSession, storedLogin, uniqueEmail, waitForServiceWorkerControl } from './helpers';

// Passkeys in Chromium with a virtual authenticator (CDP WebAuthn: ctap2, internal, resident keys, user
// verification), at 390x844 in English and Chinese (docs/product.md#passkeys): a member adds one on
// Profile > Passkeys, signs out, signs in with "Sign in with a passkey" and sees its last use; the list reads
// offline. Its own server: a passkey's RP ID is a host name (browsers refuse an IP address), so this server's
// PUBLIC_URL is http://localhost:<port>, where the shared one is 127.0.0.1.

const test = base.extend<{ server: ServerState }, { passkeyServer: ServerState }>({
  passkeyServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const port = await freePort();
      const dataDir = freshDataDir('canopy-e2e-passkey-');
      const logFile = path.join(ROOT, 'test-results', 'e2e-passkey-server.log');
      const started = await spawnServer({ port, dataDir, logFile, env: { ...E2E_SERVER_ENV, PUBLIC_URL: `http://localhost:${port}` } });
      await use(started);
      await killServer(started.pid);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  server: async ({ passkeyServer }, use) => {
    await use(passkeyServer);
  },
  baseURL: async ({ passkeyServer }, use) => {
    await use(`http://localhost:${passkeyServer.port}`);
  },
  context: async ({ context }, use) => {
    await markStartSeen(context);
    await use(context);
  },
});

function codeFor(server: ServerState, email: string): string {
  const db = new Database(path.join(server.dataDir, 'canopy.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT subject FROM outbox WHERE lower(to_email) = lower(?) ORDER BY id DESC LIMIT 1').get(email) as { subject: string };
    return /(\d{6})/.exec(row.subject)![1]!;
  } finally {
    db.close();
  }
}

async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

const TEXT = {
  en: { passkeys: 'Passkeys', signIn: 'Sign in with a passkey', unused: 'Not used yet', lastUsed: 'Last used', refused: errorMessage('passkey_failed', 'en') },
  cn: { passkeys: '通行密钥', signIn: '使用通行密钥登录', unused: '尚未使用', lastUsed: '上次使用', refused: errorMessage('passkey_failed', 'cn') },
} as const;

for (const lang of ['en', 'cn'] as const) {
  test(`adds a passkey, then signs in with it (${lang})`, async ({ page, context, request, server }) => {
    const text = TEXT[lang];
    const email = uniqueEmail(`passkey-${lang}`);
    const api = (p: string) => `http://localhost:${server.port}/h5/api${p}`;
    expect((await (await request.post(api('/api/login/sendcode'), { data: { email, scene: 'register' } })).json()).code).toBe(0);
    const registered = await (await request.post(api('/api/login/register'), { data: { email, code: codeFor(server, email), password: E2E_PASSWORD, repassword: E2E_PASSWORD, agree: true } })).json();
    expect(registered.code, registered.msg).toBe(0);
    await storeSession(context, registered.data, lang);
    await virtualAuthenticator(page);

    await page.goto('/pages/profile/passkeys');
    await expect(page.getByRole('heading', { name: text.passkeys, exact: true })).toBeVisible();
    await expect(page.getByTestId('passkeys-empty')).toBeVisible();
    await page.getByTestId('passkey-name').fill('Pixel 9');
    await page.getByTestId('passkey-password').fill(E2E_PASSWORD);
    await page.getByTestId('passkey-add').click();
    const row = page.getByTestId('passkey-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Pixel 9');
    await expect(row).toContainText(text.unused);
    await shot(page, `passkeys-added-${lang}`);

    // Signed out on this device (the authenticator, like a phone's, keeps the passkey).
    await page.evaluate(() => ['token', 'login_info', 'isLogin'].forEach((k) => localStorage.removeItem(k)));
    await page.goto('/pages/login/index');
    const button = page.getByTestId('login-passkey');
    await expect(button).toHaveText(text.signIn);
    await shot(page, `passkeys-login-${lang}`);
    await button.click();
    await expect(page).toHaveURL(/\/pages\/profile\/index/);
    expect(await storedLogin(page)).toMatchObject({ isLogin: true, memId: registered.data.mem_id });

    await page.goto('/pages/profile/passkeys');
    await expect(row).toContainText(text.lastUsed);

    // The list reads offline, from the device.
    await waitForServiceWorkerControl(page);
    await context.setOffline(true);
    await page.reload();
    await expect(row).toContainText('Pixel 9');
    await expect(row).toContainText(text.lastUsed);
    await shot(page, `passkeys-offline-${lang}`);
    await context.setOffline(false);

    // Removed: the list is empty again, and the passkey no longer signs in.
    await page.getByTestId('passkey-remove').click();
    await page.getByTestId('passkey-remove-confirm').click();
    await expect(page.getByTestId('passkeys-empty')).toBeVisible();
    await page.evaluate(() => ['token', 'login_info', 'isLogin'].forEach((k) => localStorage.removeItem(k)));
    await page.goto('/pages/login/index');
    await page.getByTestId('login-passkey').click();
    await expect(page.locator('#login-alert')).toHaveText(text.refused);
    await expect(page).toHaveURL(/\/pages\/login\/index/);
  });
}
