import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { DEMO, createProject, expect, loginDemo, memberApi, shot, test, waitForServiceWorkerControl } from './helpers';

// A monthly offset (docs/product.md#monthly-offset) at 390x844 in both languages: set up from the
// footprint result (a twelfth of the yearly footprint, rounded up) and from a project page, with the
// consent text shown and the payment password asked once; listed under the profile, paused and
// cancelled there. Screenshots in test-results/screenshots/offset-*.png.

let projectId = 0;
const NAME = `Monthly Forest ${Date.now() % 100000}`;
const NAME_CN = '每月测试森林';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000); // the operator CLI's cold start on a busy machine
  projectId = await createProject({ name: NAME, name_cn: NAME_CN, price: 1500, end_time: new Date(Date.now() + 400 * 86_400_000).toISOString() });
});

async function fillFootprint(page: Page): Promise<void> {
  await page.locator('#footprint-electricity_kwh_month').fill('400');
  await page.locator('#footprint-household_size').fill('1');
  await page.locator('#footprint-car_fuel').selectOption('petrol');
  await page.locator('#footprint-car_km_week').fill('200');
  await page.locator('#footprint-taxi_km_week').fill('20');
  await page.locator('#footprint-bus_trips_week').fill('10');
  await page.locator('#footprint-mrt_trips_week').fill('10');
  await page.locator('#footprint-flights_short_year').fill('2');
  await page.locator('#footprint-flights_long_year').fill('1');
  await page.locator('input[name="diet"][value="medium_meat"]').check();
  await page.locator('#footprint-clothing_cents_month').fill('100');
  await page.locator('#footprint-electronics_cents_month').fill('50');
  await page.locator('#footprint-household_goods_cents_month').fill('50');
}

/** What axe finds on the page as it stands (the a11y suite's check, on these screens). */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${page.url()} [${v.impact}] ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`);
}

async function confirmWithPassword(page: Page): Promise<void> {
  const sheet = page.getByTestId('confirm-sheet');
  await expect(sheet).toBeVisible();
  await sheet.getByTestId('payment-password').fill(DEMO.pay);
  await sheet.getByTestId('confirm-submit').click();
  await expect(page).toHaveURL(/\/pages\/profile\/offsets$/);
}

for (const lang of ['en', 'cn'] as const) {
  const name = lang === 'cn' ? NAME_CN : NAME;
  const t = (tons: number) => (lang === 'cn' ? `${tons} 吨` : `${tons} t`);

  test(`from the footprint result: a twelfth a month, consent, password once, listed (${lang})`, async ({ page, context, request }) => {
    const token = await loginDemo(context, request, lang);
    await page.goto('/pages/profile/footprint');
    await fillFootprint(page);
    await page.getByTestId('footprint-submit').click();
    await expect(page).toHaveURL(/\/pages\/profile\/result\?id=\d+/);
    const totalText = (await page.getByTestId('footprint-total').innerText()).replace(/[^\d.]/g, '');
    const monthly = Math.max(1, Math.ceil(Number(totalText) / 12));
    await page.getByTestId('footprint-project').selectOption(String(projectId));
    const link = page.getByTestId('footprint-offset-monthly');
    await link.scrollIntoViewIfNeeded();
    await shot(page, `offset-${lang}-footprint`);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/pages/profile/offset\\?project_id=${projectId}&tons=${monthly}$`));
    await expect(page.getByTestId('offset-tons')).toHaveValue(String(monthly));
    await page.getByTestId('offset-day').selectOption('31');
    await expect(page.getByTestId('offset-first')).toContainText(lang === 'cn' ? '最后一天' : 'last day');
    await expect(page.getByTestId('offset-consent')).toContainText(name);
    await expect(page.getByTestId('offset-consent')).toContainText(lang === 'cn' ? `${monthly} 吨` : `${monthly} t`);
    await shot(page, `offset-${lang}-subscribe`, { fullPage: true });
    const onForm = await axeViolations(page);
    expect(onForm, onForm.join('\n')).toEqual([]);
    await page.getByTestId('offset-submit').click();
    await shot(page, `offset-${lang}-confirm`);
    await confirmWithPassword(page);
    const item = page.getByTestId('offset-plan').filter({ hasText: name }).first();
    await expect(item).toContainText(t(monthly));
    await expect(item.getByTestId('offset-next')).toBeVisible();
    await shot(page, `offset-${lang}-list`);
    const onList = await axeViolations(page);
    expect(onList, onList.join('\n')).toEqual([]);
    const plans = await memberApi<{ list: Array<{ project_id: number; tons: number; day: number; consent_text: string; status: string }> }>(request, token, 'GET', '/api/offset/lists');
    expect(plans.data.list[0]).toMatchObject({ project_id: projectId, tons: monthly, day: 31, status: 'active' });
    expect(plans.data.list[0]!.consent_text).toContain(name);

    // Change: the form opens on the plan, a new consent and the password again.
    await item.getByTestId('offset-change').click();
    await expect(page).toHaveURL(/\/pages\/profile\/offset\?id=\d+$/);
    await expect(page.getByTestId('offset-tons')).toHaveValue(String(monthly));
    await expect(page.getByTestId('offset-project')).toBeDisabled();
    await page.getByTestId('offset-tons').fill(String(monthly + 1));
    await page.getByTestId('offset-day').selectOption('7');
    await expect(page.getByTestId('offset-consent')).toContainText(t(monthly + 1));
    await page.getByTestId('offset-submit').click();
    await confirmWithPassword(page);
    const changed = page.getByTestId('offset-plan').first();
    await expect(changed).toContainText(t(monthly + 1));
    await expect(changed).toContainText(lang === 'cn' ? '每月 7 日' : 'day 7');
  });

  test(`from a project page: set up, pause, cancel (${lang})`, async ({ page, context, request }) => {
    await loginDemo(context, request, lang);
    await page.goto(`/pages/project/project?id=${projectId}`);
    const offer = page.getByTestId('project-offset-monthly');
    await offer.scrollIntoViewIfNeeded();
    await shot(page, `offset-${lang}-project`);
    await offer.click();
    await expect(page).toHaveURL(new RegExp(`/pages/profile/offset\\?project_id=${projectId}$`));
    await page.getByTestId('offset-tons').fill('3');
    await page.getByTestId('offset-day').selectOption('15');
    await expect(page.getByTestId('offset-consent')).toContainText(t(3));
    await page.getByTestId('offset-submit').click();
    await confirmWithPassword(page);
    const item = page.getByTestId('offset-plan').filter({ hasText: t(3) }).first();
    await expect(item).toBeVisible();
    await item.getByTestId('offset-pause').click();
    await expect(item).toContainText(lang === 'cn' ? '已暂停' : 'Paused');
    await item.getByTestId('offset-cancel').click();
    await page.getByTestId('offset-cancel-confirm').click();
    await expect(item).toContainText(lang === 'cn' ? '已取消' : 'Cancelled');
    await shot(page, `offset-${lang}-cancelled`, { fullPage: true });

    // Offline, the list reads from the device (Dexie) and its buttons say they need a connection.
    await waitForServiceWorkerControl(page);
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.getByTestId('offset-plan').first()).toBeVisible();
      await expect(page.getByTestId('offset-plan').filter({ hasText: t(3) }).first()).toContainText(lang === 'cn' ? '已取消' : 'Cancelled');
      await expect(page.getByTestId('offset-pause').first()).toBeDisabled();
      await shot(page, `offset-${lang}-offline`);
    } finally {
      await context.setOffline(false);
    }
  });
}
