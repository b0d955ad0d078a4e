import { createHash } from 'node:crypto';
import type { Deps } from '../../env';
import { isoSgt } from '../../lib/clock';
import { AppError } from '../../lib/http';
import type { User } from '../session';
import type { Lang } from '../../../shared/errors';
import { PACK_HASH, type IccPackQuery, type PackVerdict } from '../../../shared/schemas/icc';
import { accountName, packRegistryRows, readPack } from './pack';
import { packCsv } from './pack-csv';
import { packPdf } from './pack-pdf';

// Issuing an evidence pack and checking one (docs/product.md#singapore-carbon-tax). Each pack is made from
// the account's rows at the moment it is asked for; the SHA-256 of the bytes sent is recorded before they
// leave, so the public check can say that a file with that hash was issued by Canopy, when and for whom. A
// file cannot hold its own hash: the hash travels beside it (the download's header and the screen that
// saved it) and the check page computes it from the file.

export interface IssuedPack {
  bytes: Buffer;
  hash: string;
  filename: string;
  contentType: string;
}

export async function issuePack(deps: Deps, user: User, q: IccPackQuery, lang: Lang, verifyUrl: string): Promise<IssuedPack> {
  const now = deps.clock.now();
  const pack = await readPack(deps.db, user, q, now);
  const bytes = q.format === 'pdf' ? await packPdf(pack, lang, verifyUrl) : packCsv(pack, lang, verifyUrl);
  const hash = createHash('sha256').update(bytes).digest('hex');
  await deps.db
    .insertInto('icc_packs')
    .values({ hash, user_id: user.id, format: q.format, period_from: q.from, period_to: q.to, lang, created_at: now })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  return {
    bytes,
    hash,
    filename: `canopy-carbon-tax-${q.from}-${q.to}-${hash.slice(0, 12)}.${q.format}`,
    contentType: q.format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8',
  };
}

/** What the public check says of a hash: issued by Canopy (when, for which account, which period), or not. */
export async function verifyPack(deps: Deps, hash: string): Promise<PackVerdict> {
  const clean = hash.toLowerCase();
  if (!PACK_HASH.test(clean)) throw new AppError('icc_pack_not_issued');
  const row = await deps.db
    .selectFrom('icc_packs as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select(['k.hash', 'k.format', 'k.period_from', 'k.period_to', 'k.created_at', 'u.id', 'u.company', 'u.first_name', 'u.last_name'])
    .where('k.hash', '=', clean)
    .executeTakeFirst();
  if (!row) throw new AppError('icc_pack_not_issued');
  // The public names the account by its company, or by the holder's first name and initial: enough for an
  // auditor holding the file, without the full name or e-mail of a private person.
  // The initial is a whole character (code point): half of a surrogate pair is no letter at all.
  const initial = Array.from(row.last_name)[0] ?? '';
  const name = row.company.trim() ? accountName(row) : `${row.first_name} ${initial}.`.trim();
  const at = Number(row.created_at);
  const retirements = await packRegistryRows(deps.db, row.id, { from: row.period_from, to: row.period_to });
  return { hash: row.hash, issued_at: isoSgt(at), issued_at_ms: at, account: `${name} (#${row.id})`, format: row.format, period_from: row.period_from, period_to: row.period_to, retirements };
}
