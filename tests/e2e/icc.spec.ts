import type { APIRequestContext } from '@playwright/test';
import { baseUrl, expect, shot, test } from './helpers';

// Singapore carbon tax on the project screens (docs/product.md#singapore-carbon-tax), browser half: the
// verdict with its reasons on the project page in English and Chinese, and the list's eligible-only filter.
//
// SELECTOR CONTRACT (src/app/features/projects):
//   project detail  project-icc section, icc-verdict (data-verdict), icc-reason (data-code)
//   project list    filter-icc checkbox, project-card links

type Envelope<T> = { code: number; data: T };
type Listed = { id: number; name: string; icc: { verdict: string; host_country: string } };

async function seeded(request: APIRequestContext): Promise<Listed[]> {
  const res = await request.get(`${baseUrl()}/h5/api/api/project/lists`, { params: { page_size: '50', lang: 'en' } });
  return ((await res.json()) as Envelope<{ list: Listed[] }>).data.list;
}

for (const lang of ['en', 'cn'] as const) {
  test(`the project page gives the verdict and its reasons (${lang})`, async ({ page, context, request }) => {
    if (lang === 'cn') await context.addInitScript(() => localStorage.setItem('language', JSON.stringify('cn')));
    const list = await seeded(request);
    const ghana = list.find((p) => p.icc.host_country === 'GH' && p.icc.verdict === 'eligible')!;
    const indonesia = list.find((p) => p.icc.host_country === 'ID')!;

    await page.goto(`/pages/project/project?id=${ghana.id}`);
    const block = page.getByTestId('project-icc');
    await block.scrollIntoViewIfNeeded();
    await expect(block.getByTestId('icc-verdict')).toHaveAttribute('data-verdict', 'eligible');
    await expect(block.getByTestId('icc-verdict')).toHaveText(lang === 'en' ? 'Eligible for Singapore carbon tax' : '可用于新加坡碳税');
    await expect(block.getByTestId('icc-reason')).toHaveCount(0);
    await expect(page.locator('#project-icc-facts').locator('..')).toContainText('GH-CMO-LoA-2024-031');
    await shot(page, `icc-${lang === 'en' ? 'en' : 'zh'}-eligible`);

    await page.goto(`/pages/project/project?id=${indonesia.id}`);
    await block.scrollIntoViewIfNeeded();
    await expect(block.getByTestId('icc-verdict')).toHaveAttribute('data-verdict', 'not_eligible');
    const reason = block.locator('[data-testid="icc-reason"][data-code="no_agreement"]');
    await expect(reason).toContainText(lang === 'en' ? 'The host country has no Implementation Agreement with Singapore.' : '东道国与新加坡没有实施协议。');
    await shot(page, `icc-${lang === 'en' ? 'en' : 'zh'}-not-eligible`);
  });
}

test('the list filter shows only eligible projects, and keeps it in the address', async ({ page, request }) => {
  const eligible = (await seeded(request)).filter((p) => p.icc.verdict === 'eligible');
  await page.goto('/pages/project/index');
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  await page.getByTestId('filter-icc').check();
  await expect(page).toHaveURL(/icc=eligible/);
  await expect(page.getByTestId('project-card')).toHaveCount(eligible.length);
  for (const p of eligible) await expect(page.getByTestId('project-card').filter({ hasText: p.name })).toBeVisible();
  await shot(page, 'icc-en-filter');
  await page.getByTestId('filter-icc').uncheck();
  await expect(page).not.toHaveURL(/icc=eligible/);
  await expect.poll(() => page.getByTestId('project-card').count()).toBeGreaterThan(eligible.length);
});
