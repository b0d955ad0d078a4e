import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../env';
import { idempotent } from '../../lib/idempotency';
import { clientIp, input, ok, parse, strictBody } from '../../lib/http';
import { requireUser } from '../session';
import { iccCapQuery, iccEmissionsSchema, iccPackQuery } from '../../../shared/schemas/icc';
import { capOf } from './cap';
import { saveEmissions } from './service';
import { issuePack, verifyPack } from './issue';

// Singapore carbon tax (docs/product.md#singapore-carbon-tax). iccRoutes, mounted at /h5/api/api/icc, serve
// the signed-in account: the cap of a compliance year, the taxable emissions that give it, and its evidence
// pack. verifyRoutes, at /h5/api/api/verify, are public: whether a pack's hash was issued by Canopy.
export const iccRoutes = new Hono<AppEnv>();
export const verifyRoutes = new Hono<AppEnv>();

iccRoutes.get('/cap', async (c) => {
  const { user } = await requireUser(c);
  const { year } = parse(iccCapQuery, await input(c));
  return ok(c, await capOf(c.get('deps').db, user.id, year));
});

// An organisation's taxable emissions are its settings: members who manage it enter them (owner, admin).
iccRoutes.post('/emissions', async (c) => {
  const { user } = await requireUser(c, 'manage');
  const { data, raw } = await strictBody(c, iccEmissionsSchema);
  return idempotent(c, user.id, raw, (record) => saveEmissions(c.get('deps'), user, data, record));
});

/** The address of the public check page, printed in the pack (without the hash: a file cannot hold its own). */
function verifyUrl(c: Context<AppEnv>): string {
  return `${c.get('deps').config.PUBLIC_URL ?? new URL(c.req.url).origin}/verify`;
}

/** What a pack takes of the per-address budget, in requests: a PDF's typesetting holds the server's one
 *  thread like a certificate's (and longer with many rows), so a loop on it is refused early. */
const PACK_COST = { pdf: 10, csv: 2 } as const;

// The pack as a download in the request's language; its SHA-256 in X-Canopy-Pack-Sha256. Made on each
// request (each one recorded) and never cached.
iccRoutes.get('/pack', async (c) => {
  const { user } = await requireUser(c);
  const q = parse(iccPackQuery, await input(c));
  await c.get('deps').limits.consume([['public_ip', clientIp(c)]], PACK_COST[q.format]);
  const pack = await issuePack(c.get('deps'), user, q, c.get('lang'), verifyUrl(c));
  return c.body(new Uint8Array(pack.bytes), 200, {
    'Content-Type': pack.contentType,
    'Content-Disposition': `attachment; filename="${pack.filename}"`,
    'X-Canopy-Pack-Sha256': pack.hash,
    'Access-Control-Expose-Headers': 'X-Canopy-Pack-Sha256, Content-Disposition',
    'Cache-Control': 'no-store',
  });
});

verifyRoutes.use('*', async (c, next) => {
  await c.get('deps').limits.consume([['public_ip', clientIp(c)]]);
  await next();
});

verifyRoutes.get('/pack/:hash', async (c) => ok(c, await verifyPack(c.get('deps'), c.req.param('hash'))));
