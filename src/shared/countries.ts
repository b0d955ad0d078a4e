import type { Lang } from './errors';

// A host country's name in the reader's language from its ISO 3166-1 alpha-2 code, as the project page and
// the evidence pack print it. Intl.DisplayNames holds the names in both the browser and Node, so no list of
// names ships with the app.

const LOCALES: Record<Lang, string> = { en: 'en', cn: 'zh-Hans' };
const names = new Map<Lang, Intl.DisplayNames>();

/** "GH" -> "Ghana" / "加纳"; '' stays ''; a code without a name stays the code. */
export function countryName(code: string, lang: Lang): string {
  if (!code) return '';
  let display = names.get(lang);
  if (!display) {
    display = new Intl.DisplayNames([LOCALES[lang]], { type: 'region', fallback: 'code' });
    names.set(lang, display);
  }
  try {
    return display.of(code) ?? code;
  } catch {
    return code;
  }
}
