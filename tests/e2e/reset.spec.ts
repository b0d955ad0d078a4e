import { E2E_PASSWORD, expect, readCode, registerViaApi, storedLogin, test, uniqueEmail } from './helpers';

// The reset-password screen through the UI (it shares its code and password fields with register,
// features/auth/code-form.tsx): a member who forgot the password gets a code by e-mail, sets a new one,
// is signed out and lands on the log-in screen, where the new password works and the old one does not.

const NEW_PASSWORD = 'Mangrove2026ok';

test('reset the password with an e-mailed code, then log in with the new one', async ({ page, context, request }) => {
  const email = uniqueEmail('reset');
  await registerViaApi(context, request, email);
  await page.goto(`/pages/login/reset?email=${encodeURIComponent(email)}`);
  await expect(page.getByTestId('reset-email')).toHaveValue(email);

  // The form refuses before anything is sent: no code, passwords that differ.
  await page.getByTestId('reset-password').fill(NEW_PASSWORD);
  await page.getByTestId('reset-repassword').fill(`${NEW_PASSWORD}x`);
  await page.getByTestId('reset-submit').click();
  await expect(page.locator('#reset-code-error')).toBeVisible();
  await expect(page.locator('#reset-repassword-error')).toBeVisible();

  await page.getByTestId('reset-send-code').click();
  await expect(page.getByTestId('reset-send-code')).toHaveText(/Resend in \d+s/);
  await expect(page.getByTestId('reset-code')).toBeFocused();
  const code = await readCode(email);
  await page.getByTestId('reset-code').fill(code);
  await page.getByTestId('reset-repassword').fill(NEW_PASSWORD);
  await page.getByTestId('reset-submit').click();

  await expect(page).toHaveURL(/\/pages\/login\/index/);
  // This device's session belonged to the account: it ended with the reset.
  expect((await storedLogin(page)).isLogin).toBe(false);

  const login = async (password: string) =>
    (await (await request.post('/h5/api/api/login/login', { data: { email, password, type: 'personal', agree: true, lang: 'en' } })).json()) as { code: number };
  expect((await login(E2E_PASSWORD)).code).not.toBe(0);
  expect((await login(NEW_PASSWORD)).code).toBe(0);
});
