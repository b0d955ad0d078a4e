import { type Page } from '@playwright/test';
import { ERRORS, errorMessage } from '../../src/shared/errors';
import { E2E_PASSWORD, expect, ops, registerViaApi, shot, startServer, stopServer, test, uniqueEmail, waitForServiceWorkerControl } from './helpers';

// The wallet (docs/product.md#wallet-and-ledger), browser half: a new user fills personal information, binds
// a bank account, sets the payment password, tops up, an operator confirms (the screen follows over the
// socket), withdraws (or, on a Singapore weekend or public holiday, sees the server's refusal as returned),
// reads the fund logs; then with the server down the fund logs still show and the withdraw button says it
// needs a connection. Screenshots of every wallet screen in English and Chinese go to
// test-results/screenshots/.
//
// SELECTOR CONTRACT (src/app/features/wallet): profile-first-name / profile-last-name / profile-mobile /
// profile-ic / profile-submit; card-bank-name / card-account-no / card-holder / card-submit, bound-account;
// withdpwd-password / withdpwd-repassword / withdpwd-login-password / withdpwd-submit; topup-amount /
// topup-method-bank / topup-reference / topup-submit, topup-record[data-id][data-status via status-chip];
// withdraw-amount / withdraw-fee / withdraw-total / withdraw-submit, dialog withdraw-confirm with
// withdraw-password / withdraw-confirm-submit; withdrawal-record; fundlog-row[data-kind] / fundlog-amount.

const PASSWORD = E2E_PASSWORD;
const TRADE_PASSWORD = 'Canopy#Trade26';

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/** The Singapore weekday of now (withdrawals: Monday to Friday). */
function sgtWeekday(): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Singapore', weekday: 'short' }).format(Date.now());
}

const SCREENS = [
  ['profile', '/pages/profile/profile'],
  ['card', '/pages/profile/card'],
  ['withdpwd', '/pages/profile/withdpwd'],
  ['loginpwd', '/pages/profile/loginpwd'],
  ['topup', '/pages/profile/topup'],
  ['withdraw', '/pages/profile/withdraw'],
  ['apply', '/pages/profile/apply'],
  ['fundlogs', '/pages/profile/fundlogs'],
] as const;

test('wallet: personal info, bank card, payment password, top-up, confirm, withdraw, fund logs, offline', async ({ page, context, request }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('wallet');
  await registerViaApi(context, request, email);

  // ---- personal information: the registered name the holder name must match
  await page.goto('/pages/profile/profile');
  await page.getByTestId('profile-first-name').fill('Alex');
  await page.getByTestId('profile-last-name').fill('Tan');
  // Pasted from Contacts with the country code and spaces: the field keeps the 8 local digits.
  await page.getByTestId('profile-mobile').focus();
  await page.keyboard.insertText('+65 9123 4567');
  await expect(page.getByTestId('profile-mobile')).toHaveValue('91234567');
  await page.getByTestId('profile-ic').fill('S1234567D');
  await shot(page, 'en-wallet-profile');
  await page.getByTestId('profile-submit').click();
  await expect(page.getByText('Personal information saved.')).toBeVisible();

  // ---- bind a bank account; a holder name that is not the registered name is refused first
  await page.goto('/pages/profile/card');
  await page.getByTestId('card-bank-name').fill('DBS Bank');
  await page.getByTestId('card-account-no').fill('123-456789-0');
  await expect(page.getByTestId('card-holder')).toHaveValue('Alex Tan');
  await page.getByTestId('card-holder').fill('Somebody Else');
  await page.getByTestId('card-submit').click();
  await expect(page.getByText(ERRORS.holder_mismatch.en)).toBeVisible();
  // As the bank writes it: surname first, in capitals (docs/decisions/0027-holder-names.md).
  await page.getByTestId('card-holder').fill('TAN  ALEX');
  await shot(page, 'en-wallet-card-form');
  await page.getByTestId('card-submit').click();
  const bound = page.getByTestId('bound-account');
  await expect(bound).toBeVisible();
  await expect(bound).toContainText('******7890');
  await expect(bound).not.toContainText('1234567890');
  await shot(page, 'en-wallet-card');

  // ---- payment password: the checklist ticks as the user types
  await page.goto('/pages/profile/withdpwd');
  await page.getByTestId('withdpwd-password').fill('short');
  await expect(page.locator('.pw-rules__item--met')).toHaveCount(1); // lowercase only
  await page.getByTestId('withdpwd-password').fill(TRADE_PASSWORD);
  await page.getByTestId('withdpwd-repassword').fill(TRADE_PASSWORD);
  await page.getByTestId('withdpwd-login-password').fill(PASSWORD);
  await expect(page.locator('.pw-rules__item--met')).toHaveCount(6);
  await shot(page, 'en-wallet-withdpwd');
  await page.getByTestId('withdpwd-submit').click();
  await expect(page.getByTestId('withdpwd-done')).toContainText('Payment password set');

  // ---- top up by bank transfer: pending, then credited when the operator confirms (pushed over the socket)
  await page.goto('/pages/profile/topup');
  await page.getByTestId('topup-method-bank').click();
  await page.getByTestId('topup-amount').fill('250');
  await shot(page, 'en-wallet-topup-form');
  await page.getByTestId('topup-submit').click();
  // The server assigns the reference; the payment step shows the account details and it.
  await expect(page.getByTestId('payment-panel')).toContainText('Canopy Pte. Ltd.');
  const record = page.getByTestId('topup-record').first();
  await expect(record).toContainText('S$250.00');
  await expect(record.getByTestId('status-chip')).toHaveAttribute('data-status', 'pending');
  const topupId = await record.getAttribute('data-id');
  expect(topupId).toBeTruthy();
  await ops(['topup:confirm', topupId!]);
  await expect(record.getByTestId('status-chip')).toHaveAttribute('data-status', 'credited', { timeout: 15_000 });
  await settle(page);
  await shot(page, 'en-wallet-topup');

  // ---- withdraw: fee and total before confirming, then the payment password in a modal sheet
  await page.goto('/pages/profile/withdraw');
  await expect(page.getByTestId('withdraw-available')).toHaveText('S$250.00');
  await expect(page.getByTestId('payout-account')).toContainText('******7890');
  let withdrew = false;
  // On a Singapore weekend or public holiday the form says so up front, with the next possible day, and stays
  // closed; the server's own refusal is covered by tests/server/wallet.test.ts.
  if (['Sat', 'Sun'].includes(sgtWeekday()) || (await page.getByTestId('withdraw-next').isVisible())) {
    await expect(page.getByTestId('withdraw-next')).toContainText('Next withdrawal possible on');
    await expect(page.getByTestId('withdraw-submit')).toBeDisabled();
    await shot(page, 'en-wallet-withdraw-closed');
    test.info().annotations.push({ type: 'note', description: `withdrawal form closed on ${sgtWeekday()} SGT` });
  } else {
    await page.getByTestId('withdraw-amount').fill('100');
    await expect(page.getByTestId('withdraw-fee')).toHaveText('S$2.00');
    await expect(page.getByTestId('withdraw-total')).toHaveText('S$102.00');
    await shot(page, 'en-wallet-withdraw');
    await page.getByTestId('withdraw-submit').click();
    const sheet = page.getByRole('dialog', { name: 'Confirm withdrawal' });
    await expect(sheet).toBeVisible();
    await sheet.getByTestId('withdraw-password').fill(TRADE_PASSWORD);
    await shot(page, 'en-wallet-withdraw-confirm');
    const answer = page.waitForResponse((r) => r.url().includes('/h5/api/api/wallet/withdraw') && r.request().method() === 'POST');
    await sheet.getByTestId('withdraw-confirm-submit').click();
    const result = (await (await answer).json()) as { code: number; msg: string };
    if (result.code === ERRORS.withdraw_weekend.code || result.code === ERRORS.withdraw_holiday.code) {
      // Not a working day in Singapore (today may well be a weekend): the server's message, shown as returned.
      if (result.code === ERRORS.withdraw_weekend.code) expect(['Sat', 'Sun']).toContain(sgtWeekday());
      const expected = result.code === ERRORS.withdraw_weekend.code ? ERRORS.withdraw_weekend.en : ERRORS.withdraw_holiday.en;
      await expect(sheet.getByRole('alert')).toHaveText(expected);
      await shot(page, 'en-wallet-withdraw-refused');
      test.info().annotations.push({ type: 'note', description: `withdrawal refused as expected on ${sgtWeekday()} SGT: ${expected}` });
      await sheet.getByRole('button', { name: 'Cancel' }).click();
      await expect(sheet).toBeHidden();
      await expect(page.getByTestId('withdraw-available')).toHaveText('S$250.00'); // nothing moved
    } else {
      expect(result.code, result.msg).toBe(0);
      withdrew = true;
      await expect(page).toHaveURL(/\/pages\/profile\/apply/);
      const w = page.getByTestId('withdrawal-record').first();
      await expect(w).toContainText('S$100.00');
      await expect(w.getByTestId('status-chip')).toHaveAttribute('data-status', 'processing');
    }
  }
  await page.goto('/pages/profile/apply');
  await settle(page);
  await shot(page, 'en-wallet-apply');

  // ---- fund logs: newest first, signed, filterable
  await page.goto('/pages/profile/fundlogs');
  const rows = page.getByTestId('fundlog-row');
  await expect(rows.first()).toBeVisible();
  const topupRow = page.locator('[data-testid="fundlog-row"][data-kind="topup"]');
  await expect(topupRow).toHaveCount(1);
  await expect(topupRow.getByTestId('fundlog-amount')).toHaveText('+S$250.00');
  await expect(topupRow).toContainText('Top-up');
  // Each line's balance names its bucket: a set-aside line never reads as the available balance.
  await expect(topupRow.getByTestId('fundlog-balance')).toHaveText('Available balance S$250.00');
  if (withdrew) {
    await expect(rows.first()).toHaveAttribute('data-kind', 'withdrawal_apply');
    // One row for the money moved into the frozen balance: out of available, and where it is held.
    const applied = page.locator('[data-testid="fundlog-row"][data-kind="withdrawal_apply"]');
    await expect(applied).toHaveCount(1);
    await expect(applied.getByTestId('fundlog-amount')).toHaveText('\u2212S$102.00');
    await expect(applied.getByTestId('fundlog-held')).toHaveText('Held in your frozen balance');
    await expect(applied).toContainText('Frozen balance S$102.00');
  }
  await shot(page, 'en-wallet-fundlogs');
  await page.getByTestId('fundlog-filter').getByRole('button', { name: 'Top-ups' }).click();
  await expect(page).toHaveURL(/kind=topup/);
  await expect(rows).toHaveCount(1);
  await page.getByTestId('fundlog-filter').getByRole('button', { name: 'All' }).click();
  await expect(rows.first()).toBeVisible();

  // ---- every screen in Chinese, then back to English
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('cn')));
  for (const [name, url] of SCREENS) {
    await page.goto(url);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
    await settle(page);
    await shot(page, `zh-wallet-${name}`);
  }
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('en')));
  await page.goto('/pages/profile/loginpwd');
  await settle(page);
  await shot(page, 'en-wallet-loginpwd');

  // ---- changing the payment password asks for the current one (the login password alone is not enough)
  await page.goto('/pages/profile/withdpwd');
  await expect(page.getByTestId('withdpwd-old-password')).toBeVisible();
  await page.getByTestId('withdpwd-password').fill('Another#Pay2027');
  await page.getByTestId('withdpwd-repassword').fill('Another#Pay2027');
  await page.getByTestId('withdpwd-login-password').fill(PASSWORD);
  await page.getByTestId('withdpwd-submit').click();
  await expect(page.getByText(ERRORS.required.en).first()).toBeVisible();
  await page.getByTestId('withdpwd-old-password').fill('Wrong#Pay2026');
  await page.getByTestId('withdpwd-submit').click();
  await expect(page.getByText(errorMessage('trade_password_incorrect', 'en', { n: 4 })).first()).toBeVisible();
  await shot(page, 'en-wallet-withdpwd-change');

  // ---- offline: the server is down; fund logs come from the device, writes say they need a connection
  await page.goto('/pages/profile/fundlogs');
  await expect(rows.first()).toBeVisible();
  await waitForServiceWorkerControl(page);
  await stopServer();
  try {
    await page.reload();
    await expect(page.getByTestId('offline-bar')).toBeVisible({ timeout: 15_000 });
    await expect(topupRow.getByTestId('fundlog-amount')).toHaveText('+S$250.00');
    await shot(page, 'en-wallet-fundlogs-offline');

    await page.goto('/pages/profile/withdraw');
    const button = page.getByTestId('withdraw-submit');
    await expect(button).toHaveText('Needs a connection', { timeout: 15_000 });
    await expect(button).toBeDisabled();
    await shot(page, 'en-wallet-withdraw-offline');
  } finally {
    await startServer();
  }
});
