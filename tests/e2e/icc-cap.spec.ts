import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseUrl, buyAndComplete, DEMO, E2E_PASSWORD, expect, loginDemo, memberApi, ops, registerViaApi, shot, test, uniqueEmail } from './helpers';

// Singapore carbon tax for an account (docs/product.md#singapore-carbon-tax), browser half: the cap screen
// (emissions entered, 5% cap, eligible tons held, retired for the year, room, the warning past the cap),
// downloading the evidence pack with its fingerprint, and the public check page accepting the file and
// refusing it with one byte changed.
//
// SELECTOR CONTRACT (src/app/features/carbontax):
//   /pages/profile/carbontax  icc-year, icc-taxable, icc-save, icc-cap-<taxable|cap|held|retired|room>,
//                             icc-cap-over, icc-from, icc-to, icc-pack-pdf, icc-pack-csv, icc-pack-hash,
//                             icc-pack-verify
//   /verify, /verify/<sha256> verify-file, verify-hash, verify-result (data-issued), verify-unchanged

type Listed = { id: number; status: string; icc: { verdict: string } };

test.describe.configure({ mode: 'serial' });

test('the cap screen, the pack download and its public check', async ({ page, context, request }) => {
  const token = await loginDemo(context, request);
  const lists = (await (await request.get(`${baseUrl()}/h5/api/api/project/lists`, { params: { page_size: '50', icc: 'eligible' } })).json()) as { data: { list: Listed[] } };
  const ghana = lists.data.list[0]!;
  await buyAndComplete(request, token, ghana.id, 10);
  const year = new Date().getFullYear();

  await page.goto('/pages/profile/carbontax');
  await expect(page.getByTestId('icc-year')).toHaveValue(String(year));
  await page.getByTestId('icc-taxable').fill('100');
  await page.getByTestId('icc-save').click();
  await expect(page.getByTestId('icc-cap-cap')).toHaveText(/^5\s?t/);
  await expect(page.getByTestId('icc-cap-held')).toHaveText(/^10\s?t/);
  await expect(page.getByTestId('icc-cap-room')).toHaveText(/^5\s?t/);

  // 6 t surrendered for the year: one past the cap of 5.
  const retired = await memberApi<{ id: string; icc: { over_tons: number } }>(request, token, 'POST', '/api/credit/retire', { project_id: ghana.id, tons: 6, beneficiary: 'Demo Pte Ltd', paypwd: DEMO.pay, icc_year: year });
  expect(retired.code, retired.msg).toBe(0);
  expect(retired.data.icc.over_tons).toBe(1);
  // Waiting to be cancelled on the registry: it takes the room, and counts once the operator records it.
  await page.reload();
  await expect(page.getByTestId('icc-cap-pending')).toHaveText(/^6\s?t/);
  await expect(page.getByTestId('icc-cap-room')).toHaveText(/^0\s?t/);
  await ops(['registry:cancel', retired.data.id, '--reference', `VCS-RET-E2E-${process.pid}`]);
  await page.reload();
  await expect(page.getByTestId('icc-cap-retired')).toHaveText(/^6\s?t/);
  await expect(page.getByTestId('icc-cap-room')).toHaveText(/^0\s?t/);
  await expect(page.getByTestId('icc-cap-over')).toBeVisible();
  await shot(page, 'icc-en-cap', { fullPage: true });

  // The pack: downloaded, its fingerprint shown, equal to the file's.
  const download = page.waitForEvent('download');
  await page.getByTestId('icc-pack-csv').click();
  const file = await (await download).path();
  const bytes = fs.readFileSync(file);
  const hash = createHash('sha256').update(bytes).digest('hex');
  await expect(page.getByTestId('icc-pack-hash')).toHaveText(hash);
  expect(bytes.toString('utf8')).toContain('retirement');

  // The public check: by its address, then the file itself, then the file with one byte changed.
  await page.getByTestId('icc-pack-verify').click();
  await expect(page).toHaveURL(new RegExp(`/verify/${hash}$`));
  await expect(page.getByTestId('verify-result')).toHaveAttribute('data-issued', 'true');
  await page.getByTestId('verify-file').setInputFiles({ name: 'pack.csv', mimeType: 'text/csv', buffer: bytes });
  await expect(page.getByTestId('verify-unchanged')).toBeVisible();
  await shot(page, 'icc-en-verify');
  const changed = Buffer.from(bytes);
  changed[changed.length - 3] = changed[changed.length - 3]! ^ 1;
  await page.getByTestId('verify-file').setInputFiles({ name: 'pack.csv', mimeType: 'text/csv', buffer: changed });
  await expect(page.getByTestId('verify-result')).toHaveAttribute('data-issued', 'false');
  await expect(page.getByTestId('verify-result')).toContainText('Not issued by Canopy');

  // A file far larger than any pack is refused at once, not read into the page's memory.
  const huge = path.join(os.tmpdir(), `canopy-huge-${process.pid}.pdf`);
  const fd = fs.openSync(huge, 'w');
  fs.ftruncateSync(fd, 64 * 1024 * 1024 + 1);
  fs.closeSync(fd);
  try {
    await page.getByTestId('verify-file').setInputFiles(huge);
    await expect(page.getByTestId('verify-result')).toHaveAttribute('data-issued', 'false');
    await expect(page.getByTestId('verify-result')).toContainText('too large to be a Canopy evidence pack');
  } finally {
    fs.rmSync(huge, { force: true });
  }
});

test('the retire form surrenders for the tax: refused for credits that are not eligible, warned past the cap', async ({ page, context, request }) => {
  const token = await loginDemo(context, request);
  const all = (await (await request.get(`${baseUrl()}/h5/api/api/project/lists`, { params: { page_size: '50' } })).json()) as { data: { list: Listed[] } };
  const ghana = all.data.list.find((p) => p.icc.verdict === 'eligible')!;
  const notEligible = all.data.list.find((p) => p.icc.verdict === 'not_eligible' && p.status === 'in_progress')!;
  await buyAndComplete(request, token, notEligible.id, 2);
  const year = String(new Date().getFullYear());

  const surrender = async (projectId: number, overCap = false) => {
    await page.goto(`/pages/profile/retire?project_id=${projectId}`);
    await expect(page.getByTestId('retire-project')).toHaveValue(String(projectId));
    await page.getByTestId('retire-tons').fill('1');
    await page.getByTestId('retire-beneficiary').fill('Demo Pte Ltd');
    await page.getByTestId('retire-icc').check();
    await page.getByTestId('retire-icc-year').selectOption(year);
    await page.getByTestId('retire-submit').click();
    const sheet = page.getByTestId('confirm-sheet');
    await expect(sheet.getByTestId('confirm-icc-year')).toHaveText(`For ${year}`);
    // Past the cap already: the sheet says so before the password is asked for.
    if (overCap) {
      await expect(sheet.getByTestId('confirm-icc-over')).toContainText(`would pass your ${year} cap`);
      await shot(page, 'icc-en-retire-over-cap');
    }
    await sheet.getByTestId('payment-password').fill(DEMO.pay);
    await sheet.getByTestId('confirm-submit').click();
    return sheet;
  };
  const refused = await surrender(notEligible.id);
  await expect(refused).toContainText('These credits cannot be counted against Singapore carbon tax');
  await shot(page, 'icc-en-retire-refused');

  // The demo's year is already past its cap (the test before): the surrender is made, and warned.
  await surrender(ghana.id, true);
  await expect(page.getByTestId('retire-done')).toBeVisible();
  await expect(page.getByTestId('retire-icc-warning')).toBeVisible();
  await shot(page, 'icc-en-retire-warned');
});

test('the cap screen in Chinese', async ({ page, context, request }) => {
  await loginDemo(context, request, 'cn');
  await page.goto('/pages/profile/carbontax');
  await expect(page.getByRole('heading', { name: '新加坡碳税' })).toBeVisible();
  await expect(page.getByTestId('icc-cap-cap')).toBeVisible();
  await expect(page.getByText('提供给审计师的证明文件包')).toBeVisible();
  await shot(page, 'icc-zh-cap', { fullPage: true });
});

test('with no emissions entered the cap is unknown, not 0 t: the sheet and the success screen say so and link there (en, zh)', async ({ page, context, request }) => {
  test.setTimeout(150_000);
  const { token } = await registerViaApi(context, request, uniqueEmail('icc-unknown'));
  const pay = await memberApi(request, token, 'POST', '/api/user/withdpwd', { password: DEMO.pay, repassword: DEMO.pay, login_password: E2E_PASSWORD });
  expect(pay.code, pay.msg).toBe(0);
  const topup = await memberApi<{ id: number }>(request, token, 'POST', '/api/wallet/topup', { amount: 100_000, method: 'bank' });
  expect(topup.code, topup.msg).toBe(0);
  await ops(['topup:confirm', String(topup.data.id)], { timeoutMs: 90_000 });
  const lists = (await (await request.get(`${baseUrl()}/h5/api/api/project/lists`, { params: { page_size: '50', icc: 'eligible' } })).json()) as { data: { list: Listed[] } };
  const eligible = lists.data.list.find((p) => p.status === 'in_progress')!;
  await buyAndComplete(request, token, eligible.id, 4);
  const year = String(new Date().getFullYear());

  for (const lang of ['en', 'cn'] as const) {
    const tag = lang === 'en' ? 'en' : 'zh';
    const text =
      lang === 'en'
        ? { label: 'Compliance year', unknown: 'not known until you enter', printed: 'printed on the public certificate', hidden: 'a Canopy customer' }
        : { label: '履约年度', unknown: '录入', printed: '会显示在公开的证书', hidden: '一位 Canopy 客户' };
    await page.goto('/pages/profile/index');
    await page.evaluate((l) => localStorage.setItem('language', JSON.stringify(l)), lang);
    await page.goto(`/pages/profile/retire?project_id=${eligible.id}`);
    await expect(page.getByTestId('retire-project')).toHaveValue(String(eligible.id));
    await page.getByTestId('retire-tons').fill('1');
    await page.getByTestId('retire-beneficiary').fill('Harbour Logistics');
    await expect(page.getByTestId('retire-privacy-notice')).toContainText(text.printed);
    await page.getByTestId('retire-hide-beneficiary').check();
    // Hidden: the note says what the public reads instead, never that the beneficiary is printed.
    await expect(page.getByTestId('retire-privacy-notice')).not.toContainText(text.printed);
    await expect(page.getByTestId('retire-privacy-notice')).toContainText(text.hidden);
    await page.getByTestId('retire-icc').check();
    // The year select has a label a person reads, not only one a screen reader does.
    await expect(page.getByText(text.label, { exact: true })).toBeVisible();
    await page.getByLabel(text.label).selectOption(year);
    await page.getByTestId('retire-icc').scrollIntoViewIfNeeded();
    await shot(page, `icc-${tag}-retire-form-hidden`);
    await page.getByTestId('retire-submit').click();
    const sheet = page.getByTestId('confirm-sheet');
    await expect(sheet.getByTestId('confirm-icc-unknown')).toContainText(text.unknown);
    await expect(sheet.getByTestId('confirm-icc-over')).toHaveCount(0);
    await expect(sheet.getByTestId('confirm-icc-unknown').locator('a')).toHaveAttribute('href', new RegExp(`/pages/profile/carbontax\\?year=${year}`));
    await shot(page, `icc-${tag}-retire-cap-unknown`);
    await sheet.getByTestId('payment-password').fill(DEMO.pay);
    await sheet.getByTestId('confirm-submit').click();
    await expect(page.getByTestId('retire-done')).toBeVisible();
    await expect(page.getByTestId('retire-icc-warning')).toHaveCount(0);
    const done = page.getByTestId('retire-icc-unknown');
    await expect(done).toContainText(text.unknown);
    await shot(page, `icc-${tag}-retire-done-cap-unknown`);
    if (lang === 'cn') {
      await done.locator('a').click();
      await expect(page).toHaveURL(new RegExp(`/pages/profile/carbontax\\?year=${year}`));
      await expect(page.getByTestId('icc-year')).toHaveValue(year);
    }
  }
});
