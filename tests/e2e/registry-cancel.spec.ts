import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO, buyAndComplete, createProject, expect, loginDemo, memberApi, ops, shot, test, visitorPage } from './helpers';

// Registry cancellation (docs/product.md#registry-cancellation), browser half, at 390x844 in English and
// Chinese: a certificate waiting to be cancelled on Verra (its due date) and one cancelled (day, reference,
// registry serials, the registry's link), logged out; the transparency figures of the project (held on the
// registry, retired and cancelled, retired and waiting); and the buy screen of a project whose sales a
// registry reconciliation paused. Screenshots in test-results/screenshots/registry-*.png.

const VCS = 40_000 + (Date.now() % 50_000);
const serial = (batch: number, units: number, vintage: number) => `${batch}-${batch * 1000 + 1}-${batch * 1000 + units}-VCS-VCU-304-VER-MY-14-${VCS}-0101${vintage}-3112${vintage}-0`;
const REGISTRY_ID = `VCS-${VCS}`;

let projectId = 0;
let pausedId = 0;
let cancelledId = '';
let pendingId = '';

test.describe.configure({ mode: 'serial' });

// The paused project sells again once this spec is done: other specs buy the newest projects.
test.afterAll(async () => {
  if (pausedId) await ops(['registry:resume', String(pausedId)]);
});

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000); // the operator CLI's cold starts and the scheduler's next tick, on a busy machine
  projectId = await createProject({ name: `Registry Forest ${VCS}`, name_cn: '登记处测试森林', registry: 'Verra', registry_id: REGISTRY_ID, methodology: 'VM0007 REDD+', vintage: 2024, country: 'Malaysia', price: 1000 }, { block: false });
  await ops(['inventory:add', String(projectId), serial(VCS, 30, 2024)]);
  pausedId = await createProject({ name: `Paused Forest ${VCS}`, name_cn: '暂停测试森林', registry: 'Verra', registry_id: REGISTRY_ID, methodology: 'VM0007 REDD+', vintage: 2023, country: 'Malaysia', price: 1000 }, { block: false });
  await ops(['inventory:add', String(pausedId), serial(VCS + 1, 20, 2023)]);
  await ops(['inventory:add', String(pausedId), serial(VCS + 2, 20, 2023)]);

  const context = await browser.newContext();
  const token = await loginDemo(context, context.request);
  expect(await buyAndComplete(context.request, token, projectId, 6)).toBeGreaterThanOrEqual(6);
  const retire = async (tons: number) => {
    const res = await memberApi<{ id: string }>(context.request, token, 'POST', '/api/credit/retire', { project_id: projectId, tons, beneficiary: 'Lion City Logistics Pte Ltd', paypwd: DEMO.pay });
    expect(res.code, res.msg).toBe(0);
    return res.data.id;
  };
  cancelledId = await retire(2);
  pendingId = await retire(3);
  await context.close();
  await ops(['registry:cancel', cancelledId, '--reference', 'VCS-RET-2026-0042']);

  // The registry's export holds every Verra block Canopy counts but one of the paused project's two: that
  // project's sales stop, and no other's (the seeded and other specs' projects are held in full).
  const file = path.join(os.tmpdir(), `canopy-e2e-export-${VCS}.csv`);
  const listed = JSON.parse((await ops(['inventory:list', '--json'])).stdout) as { data: Array<{ registry: string; serial_range: string; quantity: number }> };
  const missing = serial(VCS + 2, 20, 2023);
  const held = listed.data.filter((b) => b.registry === 'verra' && b.serial_range !== missing);
  fs.writeFileSync(file, `Serial Number,Quantity,Status\n${held.map((b) => `${b.serial_range},${b.quantity},held`).join('\n')}\n`);
  try {
    const out = await ops(['registry:reconcile', file, '--registry', 'verra']);
    expect(out.stdout).toContain('not_held');
  } finally {
    fs.rmSync(file, { force: true });
  }
});

for (const lang of ['en', 'cn'] as const) {
  test(`a cancelled and a pending certificate say where they stand on Verra (${lang})`, async ({ browser }) => {
    const page = await visitorPage(browser, lang);
    await page.goto(`/certificate/${cancelledId}`);
    const cancelled = page.getByTestId('registry-status');
    await expect(cancelled).toHaveAttribute('data-status', 'cancelled');
    await expect(cancelled).toContainText(lang === 'en' ? 'Cancelled on Verra on' : '在 Verra 注销');
    await expect(cancelled).toContainText('VCS-RET-2026-0042');
    await expect(page.getByTestId('registry-serials')).toContainText(`${VCS}-${VCS * 1000 + 1}-${VCS * 1000 + 2}-VCS-VCU-304-VER-MY-14-${VCS}-01012024-31122024-0`);
    await expect(page.getByTestId('registry-link')).toHaveAttribute('href', `https://registry.verra.org/app/projectDetail/VCS/${VCS}`);
    await cancelled.scrollIntoViewIfNeeded();
    await shot(page, `registry-certificate-cancelled-${lang}`);
    // Printed with its registry status: still one A4 page, the QR code whole inside the certificate (laid
    // out at the A4 page's width, 210 mm less the 14 mm margins, as the print dialog does).
    await page.setViewportSize({ width: 688, height: 1016 });
    await page.emulateMedia({ media: 'print' });
    await shot(page, `registry-certificate-cancelled-${lang}-print`, { fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).toHaveLength(1);
    const [qr, box] = [await page.getByTestId('certificate-qr').boundingBox(), await page.getByTestId('certificate').boundingBox()];
    expect(qr!.y + qr!.height).toBeLessThanOrEqual(box!.y + box!.height);
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto(`/certificate/${pendingId}`);
    const pending = page.getByTestId('registry-status');
    await expect(pending).toHaveAttribute('data-status', 'pending');
    await expect(pending).toContainText(lang === 'en' ? /Waiting to be cancelled on Verra \(due by \d{1,2} \w+ 20\d\d\)/ : /等待在 Verra 注销（截止 20\d\d年\d+月\d+日）/);
    await expect(page.getByTestId('registry-serials')).toContainText(`${VCS}-${VCS * 1000 + 3}-${VCS * 1000 + 5}-VCS-VCU`);
    await pending.scrollIntoViewIfNeeded();
    await shot(page, `registry-certificate-pending-${lang}`);
    await page.context().close();
  });

  test(`transparency shows held, retired and cancelled, retired and waiting (${lang})`, async ({ browser }) => {
    const page = await visitorPage(browser, lang);
    await page.goto('/transparency');
    const figures = page.locator(`[data-testid="tr-project"][data-project-id="${projectId}"] [data-testid="tr-registry"]`);
    await expect(figures).toContainText(lang === 'en' ? 'held 28 t' : '持有 28 吨');
    await expect(figures).toContainText(lang === 'en' ? 'retired and cancelled 2 t' : '已注销并在登记处注销 2 吨');
    await expect(figures).toContainText(lang === 'en' ? 'waiting to be cancelled 3 t' : '等待登记处注销 3 吨');
    await figures.scrollIntoViewIfNeeded();
    await shot(page, `registry-transparency-${lang}`);
    await page.getByTestId('total-held').scrollIntoViewIfNeeded();
    await shot(page, `registry-transparency-totals-${lang}`);
    await page.context().close();
  });

  test(`the member's certificates say which wait for the registry and by when (${lang})`, async ({ page, context, request }) => {
    await loginDemo(context, request, lang);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/pages/profile/certificates');
    const pending = page.locator('[data-testid="certificate-item-registry"][data-status="pending"]').first();
    await expect(pending).toContainText(lang === 'en' ? /Waiting to be cancelled on Verra \(due by/ : /等待在 Verra 注销（截止/);
    await expect(page.locator('[data-testid="certificate-item-registry"][data-status="cancelled"]').first()).toContainText('VCS-RET-2026-0042');
    await shot(page, `registry-certificates-${lang}`);
  });

  test(`a paused project's buy screen says why and takes no order (${lang})`, async ({ page, context, request }) => {
    await loginDemo(context, request, lang);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/pages/project/dproject?id=${pausedId}`);
    await expect(page.getByText(lang === 'en' ? /Sales paused: the registry holds fewer credits than Canopy counts/ : /暂停销售：登记处持有的碳信用少于 Canopy 的记录/).first()).toBeVisible();
    await shot(page, `registry-paused-buy-${lang}`);
    // The API refuses the buy with the catalogue's code in the reader's language.
    const token = await loginDemo(context, request, lang);
    const res = await memberApi(request, token, 'POST', '/api/order/buy', { project_id: pausedId, tons: 1, password: DEMO.pay });
    expect(res.code).toBe(3121);
  });
}
