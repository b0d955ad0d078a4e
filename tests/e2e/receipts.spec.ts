import fs from 'node:fs';
import { createProject, expect, loginDemo, memberApi, shot, test, DEMO } from './helpers';

// Receipts (docs/product.md#receipts) at 390x844 in both languages: a purchase's receipt opened from its
// order card shows the receipt number, the project, tons, unit price, fees, total and payment method in the
// reader's language, and its PDF downloads. Screenshots in test-results/screenshots/receipts-*.png.

let projectId = 0;

test.beforeAll(async () => {
  projectId = await createProject({ name: `Receipt Forest ${Date.now() % 100000}`, name_cn: '收据测试森林', price: 1250 });
});

for (const lang of ['en', 'cn'] as const) {
  test(`a purchase's receipt from its order, and its PDF (${lang})`, async ({ page, context, request }) => {
    test.setTimeout(90_000);
    const token = await loginDemo(context, request, lang);
    await page.setViewportSize({ width: 390, height: 844 });
    const bought = await memberApi<{ id: number }>(request, token, 'POST', '/api/order/buy', { project_id: projectId, tons: 3, password: DEMO.pay });
    expect(bought.code, bought.msg).toBe(0);
    const receipts = await memberApi<{ list: { number: number; total: number }[] }>(request, token, 'GET', '/api/receipt/lists', { order_id: String(bought.data.id) });
    expect(receipts.data.list).toHaveLength(1);
    const { number, total } = receipts.data.list[0]!;
    expect(total).toBe(3 * 1250);

    await page.goto('/pages/profile/order');
    const card = page.locator(`[data-order-id="${bought.data.id}"]`);
    await card.getByTestId('order-receipt').scrollIntoViewIfNeeded();
    await shot(page, `receipts-${lang}-order`);
    await card.getByTestId('order-receipt').click();
    await expect(page).toHaveURL(new RegExp(`/pages/profile/receipts\\?order_id=${bought.data.id}$`));
    const receipt = page.getByTestId('receipt');
    await expect(receipt).toHaveCount(1);
    await expect(receipt).toContainText(lang === 'cn' ? `收据编号 ${number}` : `Receipt no. ${number}`);
    await expect(receipt.getByTestId('receipt-total')).toContainText('S$37.50');
    await expect(receipt.getByTestId('receipt-unit-price')).toContainText('S$12.50');
    await expect(receipt.getByTestId('receipt-project')).toContainText(lang === 'cn' ? '收据测试森林' : 'Receipt Forest');
    await expect(receipt.getByTestId('receipt-method')).toContainText(lang === 'cn' ? '钱包余额' : 'Wallet balance');
    await expect(receipt).toContainText(lang === 'cn' ? '购买' : 'Purchase');
    await shot(page, `receipts-${lang}`, { fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), receipt.getByTestId('receipt-pdf').click()]);
    expect(download.suggestedFilename()).toBe(`canopy-receipt-${number}.pdf`);
    expect(fs.readFileSync(await download.path()).subarray(0, 5).toString()).toBe('%PDF-');

    // The same receipt from the purchase's line in the fund log.
    await page.goto('/pages/profile/fundlogs?kind=order_buy');
    await page.getByTestId('fundlog-row').first().getByTestId('fundlog-receipt').click();
    await expect(page.getByTestId('receipt')).toContainText(lang === 'cn' ? `收据编号 ${number}` : `Receipt no. ${number}`);
  });
}
