import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** A QR code of `text` as inline SVG (the qrcode package renders the markup; nothing is fetched). */
export function QrCode({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const [svg, setSvg] = useState('');
  useEffect(() => {
    let live = true;
    QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }).then(
      (markup) => live && setSvg(markup),
      () => live && setSvg(''),
    );
    return () => {
      live = false;
    };
  }, [text]);
  // The markup is the library's own output for our URL: no user text reaches it but the URL's characters.
  return <div className="qr" role="img" aria-label={label} data-testid={testId} data-qr-text={text} dangerouslySetInnerHTML={{ __html: svg }} />;
}
