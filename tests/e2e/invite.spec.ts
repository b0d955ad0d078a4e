import type { APIRequestContext } from '@playwright/test';
import { baseUrl, E2E_PASSWORD, expect, loginDemo, readCode, shot, storedLogin, test, uniqueEmail } from './helpers';

// docs/product.md#membership: the invitation code with copy and share, the join date, an invite link that
// opens the register form with the code filled in (on a new install too), and the membership ladder with each
// grade's threshold from the server's configuration and the progress to the next. 390x844, en and zh.

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function info(request: APIRequestContext, token: string): Promise<{ mem_id: number; invite_code: string; joined_at: number }> {
  const res = await request.get(`${baseUrl()}/h5/api/api/user/info`, { headers: { Authorization: token }, params: { lang: 'en' } });
  const body = (await res.json()) as Envelope<{ mem_id: number; invite_code: string; joined_at: number }>;
  expect(body.code, body.msg).toBe(0);
  return body.data;
}

test('profile shows the invitation code (copied with one tap) and the join date; the invite link registers a new member under it', async ({ page, context, request, browser }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
  const token = await loginDemo(context, request);
  const me = await info(request, token);
  expect(me.invite_code).toMatch(/^[A-Z0-9]{6}$/);

  await page.goto('/pages/profile/index');
  await expect(page.getByTestId('invite-code')).toHaveText(me.invite_code);
  await expect(page.getByTestId('joined-at')).toContainText('Member since');
  await page.getByTestId('invite-copy').click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(me.invite_code);
  await page.getByTestId('invite-card').scrollIntoViewIfNeeded();
  await shot(page, 'en-profile-invite');

  // The link a member shares, opened on a new install: the register form with the code filled in.
  const fresh = await browser.newContext({ baseURL: baseUrl() });
  const newcomer = await fresh.newPage();
  await newcomer.goto(`/pages/register/index?invite=${me.invite_code}`);
  const field = newcomer.getByLabel(/Invitation code/);
  await expect(field).toHaveValue(me.invite_code);
  const email = uniqueEmail('invited');
  await newcomer.getByTestId('register-email').fill(email);
  await newcomer.getByTestId('register-send-code').click();
  await newcomer.getByTestId('register-code').fill(await readCode(email));
  await newcomer.getByTestId('register-password').fill(E2E_PASSWORD);
  await newcomer.getByTestId('register-repassword').fill(E2E_PASSWORD);
  await newcomer.getByTestId('register-agree').check();
  await newcomer.getByTestId('register-submit').click();
  await expect.poll(async () => (await storedLogin(newcomer)).isLogin).toBe(true);
  await fresh.close();
});

test('membership: each grade with its threshold from the server, and the way to the next grade', async ({ page, context, request }) => {
  const token = await loginDemo(context, request);
  const ladder = await request.get(`${baseUrl()}/h5/api/api/user/membership`, { headers: { Authorization: token }, params: { lang: 'en' } });
  const m = ((await ladder.json()) as Envelope<{ grade: number; grades: { grade: number; min_purchases: number }[]; next: { grade: number } | null }>).data;
  await page.goto('/pages/profile/membership');
  await expect(page.getByTestId('member-grade')).toContainText(`P${m.grade}`);
  // The default configuration: P1 from S$1,000.00 (GRADE_THRESHOLDS_CENTS).
  await expect(page.getByTestId('grade-P1-threshold')).toHaveText(/From S\$1,000\.00 in completed purchases/);
  await expect(page.getByTestId('grade-P5-threshold')).toHaveText(/From S\$100,000\.00/);
  await expect(page.getByTestId('member-progress')).toBeVisible();
  if (m.next) await expect(page.getByRole('progressbar')).toBeVisible();
  await shot(page, 'en-membership');
});

test('in Chinese: invitation card and membership ladder', async ({ page, context, request }) => {
  await loginDemo(context, request, 'cn');
  await page.goto('/pages/profile/index');
  await expect(page.getByTestId('invite-card')).toContainText('您的邀请码');
  await expect(page.getByTestId('joined-at')).toContainText('加入时间');
  await page.getByTestId('invite-card').scrollIntoViewIfNeeded();
  await shot(page, 'zh-profile-invite');
  await page.goto('/pages/profile/membership');
  await expect(page.getByTestId('grade-P1-threshold')).toContainText('累计完成购买');
  await shot(page, 'zh-membership');
});
