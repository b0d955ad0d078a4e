import { useMemo, type SVGProps } from 'react';
import QRCode from 'qrcode';

type QrSvgProps = Omit<SVGProps<SVGSVGElement>, 'viewBox' | 'role' | 'children'> & {
  /** What the code holds. */
  text: string;
  /** The quiet zone around the code, in modules. */
  margin?: number;
  /** The code's accessible name; without one the drawing is hidden from assistive technology (a labelled
   *  wrapper names it instead). */
  label?: string;
};

/** A QR code of `text` (error correction M) as an SVG path of its dark modules, drawn from qrcode's
 *  matrix: no HTML strings, no canvas. Other SVG attributes (class, data-*) pass through. */
export function QrSvg({ text, margin = 4, label, ...rest }: QrSvgProps) {
  const { size, d } = useMemo(() => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const parts: string[] = [];
    for (let y = 0; y < modules.size; y++) for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) parts.push(`M${x + margin} ${y + margin}h1v1h-1z`);
    return { size: modules.size + 2 * margin, d: parts.join('') };
  }, [text, margin]);
  const name = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <svg {...rest} {...name} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
