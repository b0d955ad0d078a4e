import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { clientIp, input, ok, parse, strictBody } from '../../lib/http';
import { answerPublic } from '../../lib/public-answer';
import { requireUser } from '../session';
import { retireSchema, retirementsQuery } from '../../../shared/schemas/retire';
import { certificateOf, publicTransparency, requestRetirement, retire, retirementsOf } from './service';
import { approvalPath } from '../user/approval-requests';
import { markOwnerAlone } from '../../lib/activity';
import { certificatePdf } from './certificate-pdf';

// Retirement (docs/product.md#retirement). Mounted twice: creditRoutes at /h5/api/api/credit (signed-in:
// retire with an Idempotency-Key, the caller's retirements) and publicRoutes at /h5/api/api/public (no
// session: a certificate by its unguessable id, and the transparency figures from the public response cache).
export const creditRoutes = new Hono<AppEnv>();
export const publicRoutes = new Hono<AppEnv>();

/** Cache tag the response cache drops on any change of projects, orders or retirements. */
const TRANSPARENCY_TAG = 'transparency';

// The public API answers anyone: each address may ask PUBLIC_REQUESTS_PER_IP_PER_MINUTE times a minute
// (lib/limits.ts public_ip); past that, the throttle refusal (429, too_many_requests, Retry-After, held back
// like every throttle's answer).
publicRoutes.use('*', async (c, next) => {
  await c.get('deps').limits.consume([['public_ip', clientIp(c)]]);
  await next();
});

/** What a certificate PDF takes of that budget, in requests: typesetting one holds the server's one thread
 *  for a good part of a second, so an address looping on a PDF is refused long before it could keep the
 *  server busy (docs/product.md#retirement). */
const PDF_COST = 10;

// A member's retirement above the organisation's threshold waits for an approver (docs/product.md#approvals).
creditRoutes.post('/retire', async (c) => {
  const { user, session } = await requireUser(c, 'trade');
  const { data, raw } = await strictBody(c, retireSchema);
  const deps = c.get('deps');
  const path = await approvalPath(deps.db, session.acting, 'retire', data.tons);
  if (path === 'alone') markOwnerAlone(c);
  return idempotent(c, user.id, raw, async (record) =>
    path === 'request' && session.acting ? requestRetirement(deps, user, session.acting, data, record) : retire(deps, user, data, record),
  );
});

creditRoutes.get('/retirements', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(retirementsQuery, await input(c));
  return ok(c, await retirementsOf(c.get('deps'), user.id, q));
});

publicRoutes.get('/certificate/:id', async (c) => {
  // A certificate changes once, when its registry cancellation is recorded: the event of that recording
  // (tables 'certificates') drops every kept certificate; until then an answer is kept until evicted.
  const id = c.req.param('id');
  return answerPublic(c, [`certificate:${id}`, 'certificates'], {}, async () => ({ data: await certificateOf(c.get('deps'), id) }));
});

// The certificate as an A4 PDF download in the request's language (docs/product.md#retirement): made from
// the public certificate, so a hidden beneficiary stays hidden. Made on each request, not kept by the
// response cache (which holds envelopes): the per-address throttle above, at PDF_COST a PDF, bounds what
// anyone can ask for.
publicRoutes.get('/certificate/:id/pdf', async (c) => {
  await c.get('deps').limits.consume([['public_ip', clientIp(c)]], PDF_COST - 1); // the middleware took one
  const cert = await certificateOf(c.get('deps'), c.req.param('id'));
  const url = cert.certificate_url.startsWith('/') ? `${new URL(c.req.url).origin}${cert.certificate_url}` : cert.certificate_url;
  const pdf = await certificatePdf(cert, c.get('lang'), url);
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="canopy-certificate-${cert.id}.pdf"`,
    'Cache-Control': 'public, max-age=3600',
  });
});

publicRoutes.get('/transparency', (c) => answerPublic(c, [TRANSPARENCY_TAG], {}, () => publicTransparency(c.get('deps'))));
