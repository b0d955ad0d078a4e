import { baseUrl, expect, inviteToken, registerViaApi, shot, test, uniqueEmail, waitForServiceWorkerControl } from './helpers';

// docs/product.md#organisations at 390x844, in English and Chinese: the owner (the corporate registration's
// login) invites a colleague by email from the organisation screen; she opens the mailed link, joins as
// buyer, acts for the organisation; the owner sees her in the members and in the activity log.

for (const lang of ['en', 'cn'] as const) {
  const tag = lang === 'en' ? 'en' : 'zh';
  const text =
    lang === 'en'
      ? { buyer: 'Buyer', owner: 'Owner', acting: 'Acting for', joined: 'Joined', sent: 'Invitation sent', enterEmail: 'Enter your email.' }
      : { buyer: '采购员', owner: '所有者', acting: '当前代表', joined: '已加入', sent: '邀请已发送', enterEmail: '请输入邮箱' };

  test(`${lang}: the owner invites a colleague, she joins as buyer and acts for the organisation`, async ({ browser, request }) => {
    const company = lang === 'en' ? 'Lion City Logistics Pte Ltd' : '狮城物流私人有限公司';
    const owner = await browser.newContext({ baseURL: baseUrl() });
    await registerViaApi(owner, request, uniqueEmail('owner'), { company, lang });
    const page = await owner.newPage();
    await page.goto('/pages/org/index');
    await expect(page.getByTestId('org-name')).toHaveText(company);
    await expect(page.getByTestId('org-role')).toHaveText(text.owner);

    const colleague = await browser.newContext({ baseURL: baseUrl() });
    const email = uniqueEmail('colleague');
    await registerViaApi(colleague, request, email);
    await colleague.addInitScript((wire) => localStorage.setItem('language', JSON.stringify(wire)), lang);

    await page.getByTestId('org-invite-email').fill(email);
    await page.getByTestId('org-invite-role-buyer').check();
    await shot(page, `${tag}-org-invite-form`);
    await page.getByTestId('org-invite-submit').click();
    // Sent: the page says so and to whom; the cleared field is ready for the next address, not an error.
    await expect(page.getByTestId('org-invite-sent')).toContainText(text.sent);
    await expect(page.getByTestId('org-invite-sent')).toContainText(email);
    await expect(page.getByTestId('org-invite-email')).toHaveValue('');
    await expect(page.getByTestId('org-invite-email')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(text.enterEmail)).toHaveCount(0);
    await page.getByTestId('org-invite-sent').scrollIntoViewIfNeeded();
    await shot(page, `${tag}-org-invite-sent`);
    await expect(page.getByTestId('org-invitations')).toContainText(email);
    await page.getByTestId('org-invitations').scrollIntoViewIfNeeded();
    await shot(page, `${tag}-org-invited`);

    const her = await colleague.newPage();
    await her.goto(`/pages/org/join?token=${inviteToken(email)}`);
    // Before Join, the screen names the organisation and the role.
    await expect(her.getByTestId('org-invitation')).toContainText(company);
    await expect(her.getByTestId('org-invitation')).toContainText(text.buyer);
    await shot(her, `${tag}-org-join-invitation`);
    await her.getByTestId('org-join-submit').click();
    await expect(her.getByTestId('org-joined')).toContainText(company);
    await expect(her.getByTestId('org-joined')).toContainText(text.buyer);
    await shot(her, `${tag}-org-joined`);
    await her.getByTestId('org-join-act').click();
    await expect(her.getByTestId('org-context')).toContainText(text.acting);
    await expect(her.getByTestId('org-name')).toHaveText(company);
    await expect(her.getByTestId('org-role')).toHaveText(text.buyer);
    await expect(her.getByTestId('org-activity-link')).toHaveCount(0);
    await shot(her, `${tag}-org-acting-buyer`);
    // Acting for the organisation, the profile's header names the company, not her email.
    await her.goto('/pages/profile/index');
    await expect(her.getByTestId('profile-name')).toHaveText(company);
    await shot(her, `${tag}-org-acting-profile`);

    await page.reload();
    await expect(page.getByTestId('org-members')).toContainText(email);
    await page.getByTestId('org-activity-link').click();
    await expect(page.getByTestId('org-activity')).toContainText(text.joined);
    await expect(page.getByTestId('org-activity')).toContainText(email);
    await shot(page, `${tag}-org-activity`);

    // Offline, the organisation screen and the activity log show the last copy this device read.
    await page.goto('/pages/org/index');
    await expect(page.getByTestId('org-members')).toContainText(email);
    await waitForServiceWorkerControl(page);
    await owner.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('org-name')).toHaveText(company);
    await expect(page.getByTestId('org-members')).toContainText(email);
    await page.getByTestId('org-activity-link').click();
    await expect(page.getByTestId('org-activity')).toContainText(email);
    await shot(page, `${tag}-org-activity-offline`);
    await owner.setOffline(false);
    await owner.close();
    await colleague.close();
  });
}
