import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastLayer, showToast } from '../../src/app/components/toast';

// A toast is a status message, read out politely when the reader is idle; only an error interrupts
// (role="alert"). role="status" carries aria-live="polite" by itself, so a louder aria-live beside it
// contradicts the role.

/** The opening tag of the live region that holds `text`, from the rendered toast layer. */
function regionOf(text: string): string {
  const html = renderToStaticMarkup(createElement(ToastLayer));
  const regions = html.split(/(?=<div class="toast-layer__region")/).slice(1);
  const found = regions.find((r) => r.includes(text));
  return found ? /^<div[^>]*>/.exec(found)![0] : '';
}

describe('the toast layer', () => {
  afterEach(() => vi.useRealTimers());

  it('announces a success or an info toast politely, as a status', () => {
    vi.useFakeTimers();
    showToast('Payout account saved.', 'success');
    const tag = regionOf('Payout account saved.');
    expect(tag).toContain('role="status"');
    expect(tag).not.toContain('aria-live="assertive"');
    showToast('Copied', 'info');
    expect(regionOf('Copied')).toContain('role="status"');
    expect(regionOf('Copied')).not.toContain('assertive');
  });

  it('announces an error at once, as an alert', () => {
    vi.useFakeTimers();
    showToast('Network error', 'error');
    expect(regionOf('Network error')).toContain('role="alert"');
  });

  it('keeps both regions in the page while nothing is shown, so the first toast is announced', () => {
    vi.useFakeTimers();
    showToast('gone soon', 'info', 10);
    vi.advanceTimersByTime(20);
    const html = renderToStaticMarkup(createElement(ToastLayer));
    expect(html).toContain('role="status"');
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('gone soon');
  });
});
