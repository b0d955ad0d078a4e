import type { Lang } from '../../../shared/errors';
import type { Receipt } from '../../../shared/schemas/receipt';
import { a4Document, labelledLine } from '../../lib/pdf-text';
import { receiptRows } from './text';

// A receipt as one A4 PDF page (docs/product.md#receipts): the rows its mail shows, in English or Chinese,
// set in the certificate's Noto Sans SC slices (lib/pdf-text.ts typesetter,
// docs/decisions/0031-certificate-pdf.md), with the seller's details at the foot.

const GREEN = '#1f6f4a';
const MUTED = '#5b6b63';

export async function receiptPdf(r: Receipt, lang: Lang): Promise<Buffer> {
  const { title, rows, seller } = receiptRows(r, lang);
  const { doc, done, set, left, width } = await a4Document({ margin: 56, title, author: r.company.name, lang });
  doc.fillColor(GREEN);
  set(r.company.name, 11, { x: left, width });
  set(title, 24, { x: left, width });
  doc.y += 12;
  const columns = { left, width, label: 150, pad: 10, size: 11, gap: 6, muted: MUTED };
  for (const [label, value] of rows) labelledLine(doc, set, columns, label, value, '#000', value.startsWith('http') ? value : undefined);
  doc.y += 18;
  doc.fillColor(MUTED);
  for (const line of seller) set(line, 10, { x: left, width });
  doc.end();
  return done;
}
