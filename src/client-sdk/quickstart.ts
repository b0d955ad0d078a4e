import { canopyClient, newIdempotencyKey } from './canopy';

// The quickstart of docs/integrators.md, as code the test suite runs against a real server
// (tests/server/quickstart.test.ts checks that the document shows this very code).

// quickstart:begin
export async function offsetOneOrder(baseUrl: string, key: string, projectId: number) {
  const canopy = canopyClient({ baseUrl, key });

  // 1. A quote: the price of 2 tons, held for a few minutes.
  const quote = await canopy.POST('/quotes', {
    params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
    body: { project_id: projectId, tons: 2 },
  });
  if (!quote.data) throw new Error(quote.error?.detail);

  // 2. The order, at the quoted price (a test key's order completes at once).
  const order = await canopy.POST('/orders', {
    params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
    body: { project_id: projectId, tons: 2, quote_id: quote.data.id },
  });
  if (!order.data) throw new Error(order.error?.detail);

  // 3. Retire the tons for the shop's customer.
  const retirement = await canopy.POST('/retirements', {
    params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
    body: { project_id: projectId, tons: 2, beneficiary: 'Order #1042, Tan Ah Kow', reason: 'Carbon-neutral delivery', privacy: 'private' },
  });
  if (!retirement.data) throw new Error(retirement.error?.detail);

  return { quote: quote.data, order: order.data, retirement: retirement.data };
}
// quickstart:end
