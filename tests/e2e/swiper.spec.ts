import type { Page } from '@playwright/test';
import { expect, test } from './helpers';

// The home banner swiper under a finger: a swipe still counts when the swiper re-renders between the
// finger going down and coming up (where it started is kept across renders), and autoplay waits while a
// finger rests on it. Touches are dispatched as DOM TouchEvents on the swiper at 390x844.

const swiper = (page: Page) => page.locator('section.swiper');

/** The index of the current slide, from the dots (aria-current). */
async function current(page: Page): Promise<number> {
  return swiper(page)
    .locator('.swiper__dots button')
    .evaluateAll((dots) => dots.findIndex((d) => d.getAttribute('aria-current') === 'true'));
}

/** A touch event of one finger at `x` on the swiper. */
async function touch(page: Page, type: 'touchstart' | 'touchmove' | 'touchend', x: number): Promise<void> {
  await swiper(page).evaluate(
    (el, [type, x]) => {
      const t = new Touch({ identifier: 1, target: el, clientX: x, clientY: 100 });
      const down = type !== 'touchend';
      el.dispatchEvent(new TouchEvent(type, { bubbles: true, cancelable: true, touches: down ? [t] : [], targetTouches: down ? [t] : [], changedTouches: [t] }));
    },
    [type, x] as const,
  );
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await expect(swiper(page).locator('.swiper__dots button').nth(1)).toBeAttached();
  expect(await current(page)).toBe(0);
});

test('a swipe to the left shows the next slide, even when the swiper re-renders mid-swipe', async ({ page }) => {
  await touch(page, 'touchstart', 300);
  // Focus inside the swiper pauses it: a state change, so a render while the finger is down.
  await swiper(page).evaluate((el) => el.dispatchEvent(new FocusEvent('focusin', { bubbles: true })));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  await touch(page, 'touchmove', 220);
  await touch(page, 'touchend', 200);
  await expect.poll(() => current(page)).toBe(1);
});

test('autoplay does not move the slides while a finger rests on them, and goes on once it lifts', async ({ page }) => {
  test.setTimeout(60_000);
  await touch(page, 'touchstart', 200);
  await page.waitForTimeout(6500); // longer than one autoplay interval (SWIPER_INTERVAL_MS, 5 s)
  expect(await current(page)).toBe(0);
  await touch(page, 'touchend', 200); // lifted without moving: not a swipe
  expect(await current(page)).toBe(0);
  await expect.poll(() => current(page), { timeout: 8000 }).toBe(1);
});
