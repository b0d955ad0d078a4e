import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nProvider } from '@lingui/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TonsStepper } from '../../src/app/features/orders/order-parts';
import { i18n } from '../../src/app/lib/i18n';

// The buy and booking screens' tons field shows the unit in the reader's language (no "t" in Chinese).

function stepperUnit(): string {
  const html = renderToStaticMarkup(
    createElement(I18nProvider, { i18n }, createElement(TonsStepper, { id: 'tons', value: '3', onChange: () => undefined, bounds: { min: 1, max: 10 }, label: 'Tons' })),
  );
  return /class="stepper__unit"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';
}

describe('the tons field names its unit in the reader\u2019s language', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

  it('"t" in English, "吨" in Chinese', async () => {
    const en = (await import('../../locales/en/messages.po')).messages;
    i18n.loadAndActivate({ locale: 'en', messages: en });
    expect(stepperUnit()).toBe('t');
    const zh = (await import('../../locales/zh-Hans/messages.po')).messages;
    i18n.loadAndActivate({ locale: 'zh-Hans', messages: zh });
    expect(stepperUnit()).toBe('吨');
  });
});
