import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import jsQR from 'jsqr';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { QrSvg } from '../../src/app/components/qr-svg';

// The QR drawn from the module matrix (the certificate's and the PayNow panel's) decodes to its text.

async function decode(svg: string): Promise<string | null> {
  const withNs = svg.replace('<svg', '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"');
  const { data, info } = await sharp(Buffer.from(withNs)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

describe('QrSvg', () => {
  it('draws a code that decodes to its text, with a quiet zone of `margin` modules', async () => {
    const url = 'https://canopy.sg/certificate/AbCdEfGhIjKlMnOpQrStUv';
    const svg = renderToStaticMarkup(createElement(QrSvg, { text: url, margin: 2 }));
    expect(await decode(svg)).toBe(url);
    // The same size as qrcode's own SVG of the URL with the same quiet zone.
    const theirs = await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    expect(svg).toContain(/viewBox="[^"]+"/.exec(theirs)![0]);
    expect(svg).toContain('aria-hidden="true"');
  });

  it('is an image with a name when labelled, and passes its other attributes through', () => {
    const svg = renderToStaticMarkup(createElement(QrSvg, { text: 'x', label: 'PayNow QR', className: 'paynow-qr__svg', 'data-testid': 'paynow-qr' } as never));
    expect(svg).toMatch(/role="img"/);
    expect(svg).toMatch(/aria-label="PayNow QR"/);
    expect(svg).toMatch(/class="paynow-qr__svg"/);
    expect(svg).toMatch(/data-testid="paynow-qr"/);
    expect(svg).not.toContain('aria-hidden');
  });
});
