import { expect, loginDemo, shot, test } from './helpers';

// Passkeys where they cannot work (docs/product.md#passkeys): the shared e2e server is opened at
// http://127.0.0.1:<port>, an IP address, which browsers refuse as a passkey's RP ID. The login screen does
// not offer a passkey, and Profile > Passkeys says why instead of a form that always fails. 390x844, en and zh.

test('the login screen offers no passkey at an IP address', async ({ page }) => {
  await page.goto('/pages/login/index');
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await expect(page.getByTestId('login-passkey')).toHaveCount(0);
});

for (const lang of ['en', 'cn'] as const) {
  test(`the Passkeys screen at an IP address says passkeys need a host name (${lang})`, async ({ context, page, request }) => {
    await loginDemo(context, request, lang);
    await page.goto('/pages/profile/passkeys');
    const why = page.getByTestId('passkeys-ip-host');
    await expect(why).toContainText(lang === 'en' ? 'Passkeys need Canopy opened at a host name' : '通行密钥需要通过主机名');
    await expect(why).toContainText('127.0.0.1');
    await expect(page.getByTestId('passkey-add')).toHaveCount(0);
    await expect(page.getByTestId('passkeys-empty')).toHaveCount(0);
    await shot(page, `passkeys-ip-host-${lang}`);
  });
}
