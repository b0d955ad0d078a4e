import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { input, ok, parse } from '../../lib/http';
import { requireUser } from '../session';
import { receiptIdQuery, receiptsQuery } from '../../../shared/schemas/receipt';
import { receiptOf, receiptsOf } from './service';
import { receiptPdf } from './receipt-pdf';

// Receipts (docs/product.md#receipts), mounted at /h5/api/api/receipt: the signed-in account's own receipts,
// as a list (of an order, a fund-log entry, a retirement, or all), one by id, and one as an A4 PDF.
export const receiptRoutes = new Hono<AppEnv>();

receiptRoutes.get('/lists', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await receiptsOf(c.get('deps'), user.id, parse(receiptsQuery, await input(c))));
});

receiptRoutes.get('/detail', async (c) => {
  const { user } = await requireUser(c);
  return ok(c, await receiptOf(c.get('deps'), user.id, parse(receiptIdQuery, await input(c)).id));
});

// In the request's language; made on each request and never cached (a receipt is private).
receiptRoutes.get('/pdf', async (c) => {
  const { user } = await requireUser(c);
  const receipt = await receiptOf(c.get('deps'), user.id, parse(receiptIdQuery, await input(c)).id);
  const pdf = await receiptPdf(receipt, c.get('lang'));
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="canopy-receipt-${receipt.number}.pdf"`,
    'Cache-Control': 'no-store',
  });
});
