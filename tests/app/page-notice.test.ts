import 'fake-indexeddb/auto';
import './browser-globals';
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nProvider } from '@lingui/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLocale, i18n } from '../../src/app/lib/i18n';
import { ToastLayer } from '../../src/app/components/toast';
import { PageNotice, clearKeptError, dismissNotice, keepNotice, noticeOnRoute } from '../../src/app/components/page-notice';
import { keepWithdrawalNews } from '../../src/app/features/wallet/use-withdraw-form';
import { onServerMessage } from '../../src/app/app-runtime';
import { TOAST_MS } from '../../src/shared/constants';
import type { Locale } from '../../src/shared/api';
import type { ApprovalRequest } from '../../src/shared/schemas/approval';
import type { WithdrawalRecord } from '../../src/shared/schemas/wallet';

// What a member must know stays on the screen it lands on after the 1.5 s toast has gone
// (docs/decisions/0046-phone-polish.md, "Toasts"); small news stays a toast alone. "The page" here is what
// every screen draws of it: the kept notice under the nav bar and the toast layer.

/** The markup of the screen at `pathname`: its kept notice and the toast layer. */
function screen(pathname: string): string {
  return renderToStaticMarkup(createElement(I18nProvider, { i18n }, createElement(Fragment, null, createElement(PageNotice, { pathname }), createElement(ToastLayer))));
}
/** The kept notice alone (empty when the screen has none). */
const notice = (pathname: string) => renderToStaticMarkup(createElement(I18nProvider, { i18n }, createElement(PageNotice, { pathname })));
const toasts = () => renderToStaticMarkup(createElement(ToastLayer));

const APPROVALS = '/pages/org/approvals';
const WITHDRAW = '/pages/wallet/withdraw';

const sentForApproval = { approval: { id: 7, kind: 'withdraw', amount: 250_000, fee: 500, status: 'waiting' } as unknown as ApprovalRequest };
const submitted = { id: 9, amount: 12_345, status: 'pending' } as unknown as WithdrawalRecord;

afterEach(() => {
  dismissNotice();
  vi.useRealTimers();
});

describe.each<[Locale, RegExp, RegExp, string]>([
  ['en', /Withdrawal of S\$2,500\.00 sent for approval\. The money is held until an approver decides\./, /Withdrawal of S\$123\.45 submitted\./, 'Dismiss'],
  ['zh-Hans', /S\$2,500\.00 的提现已提交审批/, /S\$123\.45 的提现申请已提交/, '关闭'],
])('a withdrawal the member sent (%s)', (locale, approvalText, submittedText, dismiss) => {
  it('sent for approval: the news stays on the approvals screen it leads to, after the toast has gone', async () => {
    await activateLocale(locale);
    vi.useFakeTimers();
    const to = keepWithdrawalNews(sentForApproval, i18n);
    expect(to).toBe(APPROVALS);
    expect(notice(WITHDRAW)).toBe(''); // not on the form it leaves
    noticeOnRoute(APPROVALS); // the navigation lands
    vi.advanceTimersByTime(TOAST_MS + 100);
    expect(toasts()).not.toMatch(approvalText);
    const html = screen(APPROVALS);
    expect(html).toMatch(approvalText);
    expect(html).toContain('role="status"');
    expect(html).toContain(`aria-label="${dismiss}"`);
    // Leaving the screen ends it.
    noticeOnRoute('/pages/profile/index');
    expect(screen(APPROVALS)).not.toMatch(approvalText);
  });

  it('submitted: the news stays on the withdrawal list', async () => {
    await activateLocale(locale);
    vi.useFakeTimers();
    const to = keepWithdrawalNews(submitted, i18n);
    noticeOnRoute(to);
    vi.advanceTimersByTime(TOAST_MS * 4);
    expect(to).toBe('/pages/profile/apply');
    expect(screen(to)).toMatch(submittedText);
  });
});

describe('a refused write', () => {
  it('stays as an alert after the toast, until the member tries again or closes it', async () => {
    await activateLocale('en');
    vi.useFakeTimers();
    keepNotice('Only the owner can change the thresholds.', 'error', { path: APPROVALS });
    // The toast is seen but not read out: the alert on the screen is the screen reader's copy.
    expect(toasts()).toContain('aria-hidden="true"><div class="toast" data-kind="error">');
    vi.advanceTimersByTime(TOAST_MS + 100);
    expect(toasts()).not.toContain('Only the owner');
    expect(screen(APPROVALS)).toMatch(/role="alert"[^>]*>.*Only the owner can change the thresholds\./);
    clearKeptError(); // a new attempt
    expect(notice(APPROVALS)).toBe('');
  });

  it('a new attempt does not end news of a success', async () => {
    await activateLocale('en');
    keepNotice('Withdrawal of S$10.00 submitted.', 'success', { path: APPROVALS });
    clearKeptError();
    expect(notice(APPROVALS)).toContain('Withdrawal of S$10.00 submitted.');
    dismissNotice(); // the close button
    expect(notice(APPROVALS)).toBe('');
  });
});

describe('a live notice', () => {
  const completed = {
    type: 'notification' as const,
    id: 1,
    title: 'Order P261206000002 completed: 5 t of Kalimantan',
    title_cn: '订单 P261206000002 已完成：Kalimantan 5 吨',
    body: '',
    url: '/pages/profile/orders',
    created_at: 0,
  };

  it.each<[Locale, string]>([
    ['en', 'Order P261206000002 completed: 5 t of Kalimantan'],
    ['zh-Hans', '订单 P261206000002 已完成：Kalimantan 5 吨'],
  ])('stays on the screen it lands on, naming the order, after its toast (%s)', async (locale, title) => {
    await activateLocale(locale);
    vi.useFakeTimers();
    await onServerMessage(completed as never);
    vi.advanceTimersByTime(5000);
    expect(toasts()).not.toContain(title);
    expect(screen('/')).toContain(title); // the screen it came to (Node has no location: '/')
  });
});
