import { Webhook } from 'standardwebhooks';
import { expect, registerViaApi, shot, test, uniqueEmail } from './helpers';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

// Webhooks at 390x844 in English and Chinese (docs/product.md#webhooks): a member adds an endpoint on
// Profile > Webhooks and sees its secret once, pings it, and sees the delivery in the endpoint's log; the
// receiver (a real HTTP server on loopback) verifies the ping with that secret.

const TEXT = {
  en: { title: 'Webhooks', add: 'Add endpoint', saved: 'I have saved it', delivered: 'Delivered', response: 'response 200' },
  cn: { title: 'Webhooks', add: '添加端点', saved: '我已保存', delivered: '已送达', response: '响应 200' },
} as const;

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

for (const lang of ['en', 'cn'] as const) {
  test(`adds an endpoint (secret shown once), pings it, sees the delivery (${lang})`, async ({ page, context, request }) => {
    const text = TEXT[lang];
    await registerViaApi(context, request, uniqueEmail(`webhooks-${lang}`));
    await context.addInitScript((wire) => localStorage.setItem('language', JSON.stringify(wire)), lang);
    await page.goto('/pages/developer/webhooks');
    await expect(page.getByRole('heading', { name: text.title, exact: true })).toBeVisible();
    await expect(page.getByTestId('webhooks-empty')).toBeVisible();

    const url = `${receiver.url}/e2e-${lang}`;
    await page.getByTestId('webhook-url').fill(url);
    await page.getByTestId('webhook-event-ping').check();
    await page.getByRole('button', { name: text.add }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByTestId('webhook-endpoint')).toHaveCount(1);
    await shot(page, `webhooks-secret-${lang}`, { fullPage: true });
    await page.getByRole('button', { name: text.saved }).click();
    await expect(page.getByTestId('webhook-secret-card')).toHaveCount(0);
    // Shown once: a reload lists the endpoint without it.
    await page.reload();
    await expect(page.getByTestId('webhook-endpoint')).toContainText(url);
    await expect(page.getByText(secret)).toHaveCount(0);

    const before = receiver.received.length;
    await page.getByTestId('webhook-ping').click();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(before);
    const got = receiver.received.at(-1)!;
    expect(got.path).toBe(`/e2e-${lang}`);
    expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ type: 'ping' });

    await expect(page.getByTestId('webhook-delivery').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('webhook-delivery').first()).toContainText(text.delivered);
    await expect(page.getByTestId('webhook-delivery').first()).toContainText(text.response);
    await shot(page, `webhooks-log-${lang}`, { fullPage: true });
  });
}
