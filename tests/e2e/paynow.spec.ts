// PayNow top-up (docs/decisions/0014-paynow.md) at 390x844 in English and Chinese: the QR on the screen and
// the saved PNG decode (jsQR) to a PayNow payload with this top-up's amount and reference; the copy buttons
// put UEN, amount and reference on the clipboard; offline, the shown QR stays and the form says it needs a
// connection; after `ops topup:import` of a bank statement carrying the reference, the screen turns
// "credited" without a reload. Screenshots in /tmp/paynow-shots.
import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import type { Locator, Page } from '@playwright/test';
import { parsePayNowPayload } from '../../src/shared/paynow';
import { baseUrl, dataDir, expect, ops, registerViaApi, test, uniqueEmail } from './helpers';

const SHOTS = '/tmp/paynow-shots';

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled', fullPage: true });
}

/** Decodes a PNG with jsQR: the page draws it on a canvas (the image is a data: URL, which the app's CSP
 *  allows) and hands back its pixels. The text of the QR code in it, or null. */
async function decodePng(page: Page, png: Buffer): Promise<string | null> {
  const img = await page.evaluate(async (b64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${b64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(image, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, data: Array.from(data.data) };
  }, png.toString('base64'));
  return jsQR(new Uint8ClampedArray(img.data), img.width, img.height)?.data ?? null;
}

/** The QR as the phone shows it: a screenshot of the SVG element, decoded. */
async function decodeShownQr(page: Page, qr: Locator): Promise<string | null> {
  return decodePng(page, await qr.screenshot({ animations: 'disabled' }));
}

const TEXT = {
  en: { title: 'Scan to pay with PayNow', credited: 'is in your available balance.', offline: 'A top-up needs a connection', copied: 'Copied' },
  cn: { title: '扫码使用 PayNow 付款', credited: '已计入您的可用余额', offline: '充值需要网络连接', copied: '已复制' },
} as const;

for (const lang of ['en', 'cn'] as const) {
  test(`PayNow top-up (${lang}): QR with amount and reference, save, copy, offline, credited live after import`, async ({ page, context, request }) => {
    test.setTimeout(120_000);
    const t = TEXT[lang];
    await registerViaApi(context, request, uniqueEmail(`paynow-${lang}`));
    await context.addInitScript((wire) => localStorage.setItem('language', JSON.stringify(wire)), lang);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });

    await page.goto('/pages/profile/topup');
    await page.getByTestId('topup-amount').fill('23.45');
    await expect(page.getByTestId('topup-method-paynow')).toHaveAttribute('aria-pressed', 'true');
    await page.getByTestId('topup-submit').click();

    const panel = page.getByTestId('payment-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(t.title);
    await expect(page.getByTestId('countdown')).toBeVisible();
    const reference = (await page.getByTestId('copy-reference-value').textContent())!.trim();
    expect(reference).toMatch(/^[A-Z0-9-]{1,25}$/);

    // The QR on the screen carries exactly this top-up.
    const qr = page.getByTestId('paynow-qr');
    const decoded = await decodeShownQr(page, qr);
    expect(decoded, 'the QR on the screen decodes').not.toBeNull();
    const fields = parsePayNowPayload(decoded!);
    expect(fields).toMatchObject({ amountCents: 2345, reference, editable: false });
    expect(await qr.getAttribute('data-payload')).toBe(decoded);
    await shot(page, `${lang}-paynow-qr`);

    // Save QR: a PNG download that decodes to the same payload.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('paynow-save').click()]);
    expect(download.suggestedFilename()).toBe(`canopy-paynow-${reference}.png`);
    const saved = path.join(SHOTS, `${lang}-saved-qr.png`);
    fs.mkdirSync(SHOTS, { recursive: true });
    await download.saveAs(saved);
    expect(await decodePng(page, fs.readFileSync(saved))).toBe(decoded);

    // Copy buttons: UEN, amount (plain decimal, as bank apps take it) and reference.
    for (const [id, expected] of [
      ['copy-uen', fields.uen],
      ['copy-amount', '23.45'],
      ['copy-reference', reference],
    ] as const) {
      await page.getByTestId(`${id}-copy`).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    }
    await expect(page.getByText(t.copied).first()).toBeVisible();

    // Offline: the QR already shown stays.
    await context.setOffline(true);
    await expect(qr).toBeVisible();
    await shot(page, `${lang}-paynow-offline-qr`);
    await context.setOffline(false);

    // The bank statement arrives: the operator imports it; the screen turns "credited" without a reload.
    const file = path.join(dataDir(), `paynow-${lang}-${Date.now()}.csv`);
    const today = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Singapore', day: '2-digit', month: 'short', year: 'numeric' }).format(Date.now());
    fs.writeFileSync(
      file,
      'Date,Value Date,Transaction Description 1,Transaction Description 2,Debit,Credit,Running Balance\n' +
        `${today},${today},FAST PAYMENT via PayNow-UEN,OTHR ${reference.toLowerCase()} E2E PAYER,,23.45,"${(Math.random() * 10_000 + 1000).toFixed(2)}"\n`,
    );
    const navigations: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
    const out = await ops(['topup:import', file, '--format', 'dbs-csv']);
    expect(out.stdout).toMatch(/matched 1, flagged 0, unmatched 0/);
    const credited = page.getByTestId('topup-credited');
    await expect(credited).toBeVisible({ timeout: 15_000 });
    await expect(credited).toContainText('S$23.45');
    await expect(credited).toContainText(t.credited);
    expect(navigations, 'no reload').toEqual([]);
    await expect(page.getByTestId('topup-record').first().getByTestId('status-chip')).toHaveAttribute('data-status', 'credited');
    await shot(page, `${lang}-paynow-credited`);

    // Offline, the form says it needs a connection.
    await page.getByTestId('topup-again').click();
    await context.setOffline(true);
    await expect(page.getByTestId('topup-offline')).toContainText(t.offline);
    await expect(page.getByTestId('topup-submit')).toBeDisabled();
    await shot(page, `${lang}-paynow-offline-form`);
    await context.setOffline(false);
  });
}

test('bank transfer (en): account details and reference with copy buttons; expiry and a fresh request; shown again from the list', async ({ page, context, request }) => {
  test.setTimeout(90_000);
  await page.clock.install();
  await registerViaApi(context, request, uniqueEmail('paynow-bank'));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
  await page.goto('/pages/profile/topup');
  await page.getByTestId('topup-method-bank').click();
  await page.getByTestId('topup-amount').fill('100');
  await page.getByTestId('topup-submit').click();
  const panel = page.getByTestId('payment-panel');
  await expect(panel).toContainText('DBS Bank Ltd');
  await expect(page.getByTestId('paynow-qr')).toHaveCount(0);
  const reference = (await page.getByTestId('copy-reference-value').textContent())!.trim();
  await page.getByTestId('copy-reference-copy').click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
  await page.getByTestId('copy-account-copy').click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('0721234567');
  await shot(page, 'en-bank-transfer');

  // Back to the form, then the pending request's details again from the list.
  await page.getByTestId('payment-close').click();
  await expect(page.getByTestId('topup-form')).toBeVisible();
  await page.getByTestId('topup-show').first().click();
  await expect(page.getByTestId('copy-reference-value')).toHaveText(reference);

  // 31 minutes later (the default TOPUP_EXPIRY_MINUTES is 30): expired, and a fresh request is offered.
  await page.clock.fastForward('31:00');
  await expect(page.getByTestId('payment-expired')).toBeVisible();
  await expect(page.getByTestId('copy-reference-value'), 'no details to pay an expired request').toHaveCount(0);
  await shot(page, 'en-bank-expired');
  await page.getByTestId('payment-fresh').click();
  await expect(page.getByTestId('payment-expired')).toHaveCount(0);
  await expect(page.getByTestId('copy-reference-value')).not.toHaveText(reference);
  await expect(page.getByTestId('payment-amount')).toHaveText('S$100.00');
});
