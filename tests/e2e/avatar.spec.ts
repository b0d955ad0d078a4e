import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { type APIRequestContext, type Page } from '@playwright/test';
import { ROOT } from './server-control';
import { baseUrl, expect, registerViaApi, test, uniqueEmail } from './helpers';

// The avatar (/pages/profile/cropper, docs/decisions/0007-avatar.md), at 390x844 in English and Chinese: from
// the profile's avatar to the cropper, pick a file, move the crop with the keyboard, rotate, upload (the
// progress bar shows: the upload is held back a moment), back on the profile with the new picture, still
// there after a reload; a cancelled upload changes nothing; offline the page and its button say it needs a
// connection. Screenshots go to test-results/screenshots-avatar/.
//
// SELECTOR CONTRACT (src/app/features/account/avatar-page.tsx): profile-avatar-link (profile page),
// avatar-current, avatar-file, avatar-camera, avatar-cropper, avatar-zoom, avatar-rotate, avatar-upload,
// avatar-progress, avatar-cancel, avatar-note, avatar-offline.

const SHOTS = path.join(ROOT, 'test-results', 'screenshots-avatar');
const UPLOAD_URL = '**/h5/api/api/user/avatar?*';

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
}

async function serverAvatar(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get(`${baseUrl()}/h5/api/api/user/info`, { headers: { Authorization: token } });
  return ((await res.json()) as { data: { avatar: string } }).data.avatar;
}

/** A 900x600 landscape photo: green sky, a sun, ground. */
async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600">
    <rect width="900" height="600" fill="#8fd3f4"/><rect y="380" width="900" height="220" fill="#2f7d4a"/>
    <circle cx="450" cy="260" r="140" fill="#f6c445"/><circle cx="410" cy="230" r="16" fill="#333"/><circle cx="490" cy="230" r="16" fill="#333"/>
    <path d="M390 310 Q450 360 510 310" stroke="#333" stroke-width="10" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function pick(page: Page): Promise<void> {
  await page.getByTestId('avatar-file').setInputFiles({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: await photo() });
  await expect(page.getByTestId('avatar-cropper')).toBeVisible();
  await expect(page.getByTestId('avatar-cropper').locator('img')).toBeVisible();
}

for (const lang of ['en', 'cn'] as const) {
  test(`avatar crop and upload with progress, shown after reload (${lang})`, async ({ page, context, request }) => {
    const { token } = await registerViaApi(context, request, uniqueEmail(`avatar-${lang}`));
    if (lang === 'cn') await context.addInitScript(() => localStorage.setItem('language', JSON.stringify('cn')));
    const tag = lang === 'cn' ? 'zh' : 'en';

    await page.goto('/pages/profile/index');
    await page.getByTestId('profile-avatar-link').click();
    await expect(page).toHaveURL(/\/pages\/profile\/cropper$/);
    await expect(page.getByTestId('avatar-file')).toBeAttached();
    await shot(page, `${tag}-avatar-empty`);

    // A cancelled upload: the request is held, cancel, nothing changed.
    await pick(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(UPLOAD_URL, async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    await page.getByTestId('avatar-upload').click();
    await expect(page.getByTestId('avatar-progress')).toBeVisible();
    await page.getByTestId('avatar-cancel').click();
    await expect(page.getByTestId('avatar-note')).toBeVisible();
    release();
    await page.unroute(UPLOAD_URL);
    expect(await serverAvatar(request, token)).toBe('');

    // Frame it: keyboard moves, zoom, a quarter turn.
    const area = page.getByTestId('avatar-cropper').locator('[data-testid="cropper"], .reactEasyCrop_CropArea').first();
    const media = page.getByTestId('avatar-cropper').locator('img');
    const placed = await media.getAttribute('style');
    await area.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => media.getAttribute('style')).not.toBe(placed);
    await page.getByTestId('avatar-zoom').fill('1.5');
    await page.getByTestId('avatar-rotate').click();
    await page.getByTestId('avatar-rotate').click();
    await page.getByTestId('avatar-rotate').click();
    await page.getByTestId('avatar-rotate').click();
    await shot(page, `${tag}-avatar-crop`);

    // Upload, held back 1.5 s so the progress bar is seen.
    await page.route(UPLOAD_URL, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.getByTestId('avatar-upload').click();
    await expect(page.getByTestId('avatar-progress')).toBeVisible();
    await expect(page.getByRole('progressbar')).toBeVisible();
    await shot(page, `${tag}-avatar-progress`);
    await expect(page).toHaveURL(/\/pages\/profile\/index$/, { timeout: 15_000 });
    await page.unroute(UPLOAD_URL);

    const stored = await serverAvatar(request, token);
    expect(stored).toMatch(/^\/h5\/api\/avatar\/[0-9a-f]{64}\.webp$/);
    const img = page.getByTestId('profile-avatar-link').locator('img');
    await expect(img).toHaveAttribute('src', stored);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(512);
    await shot(page, `${tag}-avatar-profile`);

    await page.reload();
    await expect(page.getByTestId('profile-avatar-link').locator('img')).toHaveAttribute('src', stored);
    await expect.poll(() => page.getByTestId('profile-avatar-link').locator('img').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(512);

    // The cropper shows the current one too.
    await page.getByTestId('profile-avatar-link').click();
    await expect(page.getByTestId('avatar-current')).toHaveAttribute('src', stored);
  });

  test(`offline, the avatar upload says it needs a connection (${lang})`, async ({ page, context, request }) => {
    await registerViaApi(context, request, uniqueEmail(`avatar-off-${lang}`));
    if (lang === 'cn') await context.addInitScript(() => localStorage.setItem('language', JSON.stringify('cn')));
    const tag = lang === 'cn' ? 'zh' : 'en';
    await page.goto('/pages/profile/cropper');
    await expect(page.getByTestId('avatar-file')).toBeAttached();
    await pick(page);
    await context.setOffline(true);
    try {
      await expect(page.getByTestId('avatar-offline')).toBeVisible();
      const button = page.getByTestId('avatar-upload');
      await expect(button).toBeDisabled();
      await expect(button).toHaveText(lang === 'cn' ? /网络|连接|联网/ : /Needs a connection/);
      await shot(page, `${tag}-avatar-offline`);
    } finally {
      await context.setOffline(false);
    }
  });
}
