import { baseUrl, DEMO, expect, loginDemo, shot, test } from './helpers';

// The Developers screen (docs/product.md#integrators) at 390x844 in English and Chinese: the demo member
// creates a test key with the payment password, sees its secret once (copied from the card, gone after
// "I have saved it" and never in the list), uses it on /v1, and revokes it.

const TEXT = {
  en: { title: 'Developers', saved: 'I have saved it', revoked: 'Revoked', unused: 'Never used', lastUsed: 'Last used' },
  cn: { title: '开发者', saved: '我已保存', revoked: '已撤销', unused: '从未使用', lastUsed: '最近使用' },
} as const;

for (const lang of ['en', 'cn'] as const) {
  test(`creates a key whose secret is shown once, then revokes it (${lang})`, async ({ page, context, request }) => {
    const text = TEXT[lang];
    await loginDemo(context, request, lang);
    await page.goto('/pages/profile/index');
    await page.getByRole('link', { name: text.title }).click();
    await expect(page).toHaveURL(/\/pages\/developer/);
    await expect(page.getByTestId('api-key-create')).toBeVisible();
    await shot(page, `developer-${lang}`, { fullPage: true });

    const name = `Checkout ${lang} ${Date.now()}`;
    await page.getByTestId('api-key-name').fill(name);
    await page.getByTestId('api-key-mode-test').check();
    await page.getByTestId('api-key-create-submit').click();
    const sheet = page.getByTestId('api-key-confirm');
    await sheet.getByTestId('payment-password').fill(DEMO.pay);
    await sheet.getByTestId('api-key-confirm-submit').click();

    const secret = page.getByTestId('api-key-secret');
    await expect(secret).toHaveText(/^ck_test_[A-Za-z0-9_-]{43}$/);
    const key = (await secret.textContent())!;
    await shot(page, `developer-secret-${lang}`);

    // The key works on /v1 (its sandbox), and its use shows in the list.
    const balance = await request.get(`${baseUrl()}/v1/balance`, { headers: { Authorization: `Bearer ${key}` } });
    expect(balance.status()).toBe(200);
    expect(await balance.json()).toMatchObject({ mode: 'test', currency: 'SGD' });

    await page.getByRole('button', { name: text.saved }).click();
    await expect(page.getByTestId('api-key-secret')).toHaveCount(0);
    await page.reload();
    const row = page.getByTestId('api-key-item').filter({ hasText: name });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('api-key-prefix')).toHaveText(`${key.slice(0, 16)}…`);
    await expect(row.getByTestId('api-key-last-used')).toContainText(text.lastUsed);
    // Shown once: the secret is nowhere on the screen any more.
    expect(await page.content()).not.toContain(key.slice(16));
    await shot(page, `developer-list-${lang}`, { fullPage: true });

    await row.getByTestId('api-key-revoke').click();
    await expect(row.getByTestId('api-key-status')).toHaveText(text.revoked);
    const refused = await request.get(`${baseUrl()}/v1/balance`, { headers: { Authorization: `Bearer ${key}`, 'Accept-Language': lang === 'cn' ? 'zh' : 'en' } });
    expect(refused.status()).toBe(401);
    expect(refused.headers()['content-type']).toContain('application/problem+json');
  });
}

test('the /v1 reference page shows the integrators operations under its CSP', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/v1/docs');
  await expect(page.getByText('createOrder').first()).toBeVisible();
  await expect(page.getByText('createRetirement').first()).toBeVisible();
  expect(errors).toEqual([]);
  await shot(page, 'developer-v1-docs');
});
