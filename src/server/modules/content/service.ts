import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import type { PublicAnswer } from '../../lib/response-cache';
import type { Banner, ContentPage, FaqItem } from '../../../shared/schemas/content';

// FAQ, about, protocol and privacy pages, and the home banners: content kept in the database, answered
// whole (a short list, one page).

function onePage<T>(list: T[]) {
  return { list, total: list.length, page: 1, page_size: list.length };
}

export async function faq(deps: Deps): Promise<PublicAnswer> {
  const rows = await deps.db.selectFrom('faqs').selectAll().orderBy('sort').orderBy('id').execute();
  const list: FaqItem[] = rows.map(({ id, question, question_cn, answer, answer_cn }) => ({ id, question, question_cn, answer, answer_cn }));
  return { data: onePage(list) };
}

/** Where a page names the support address it says `{support_email}`: the configured SUPPORT_EMAIL is put
 *  in on every read, so an operator's address reaches pages already stored. */
const SUPPORT_EMAIL_SLOT = /\{support_email\}/g;
/** A page's text with the legal entity filled in: pages write {company_name}, {company_uen} and
 *  {company_address}, so the company they name is the one the receipts and the PayNow QR name. */
function withCompany(text: string, config: Deps['config']): string {
  // Functions, not strings, as replacements: a string's `$&` or `$'` would copy parts of the page in.
  return text
    .replaceAll('{company_name}', () => config.COMPANY_NAME)
    .replaceAll('{company_uen}', () => config.COMPANY_UEN)
    .replaceAll('{company_address}', () => config.COMPANY_ADDRESS);
}

export async function contentPage(deps: Deps, slug: string): Promise<PublicAnswer> {
  const row = await deps.db.selectFrom('pages').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (!row) throw new AppError('not_found');
  const fill = (text: string) => withCompany(text, deps.config).replace(SUPPORT_EMAIL_SLOT, () => deps.config.SUPPORT_EMAIL);
  const page: ContentPage = { ...(row as ContentPage), body: fill(row.body), body_cn: fill(row.body_cn) };
  return { data: page };
}

export async function banners(deps: Deps): Promise<PublicAnswer> {
  const rows = await deps.db.selectFrom('banners').selectAll().orderBy('sort').orderBy('id').execute();
  const list: Banner[] = rows.map(({ id, title, title_cn, image, link }) => ({ id, title, title_cn, image, link }));
  return { data: onePage(list) };
}
