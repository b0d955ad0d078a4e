// A notice's text in the reader's language (docs/decisions/0008-inbox.md). Kept apart from the inbox's
// valibot schemas: the app's runtime (toasts) loads it on every screen.

/** A notice's text in the reader's language: the Chinese text when there is one, else the English. */
export function noticeText(n: { title: string; body: string; title_cn?: string; body_cn?: string }, lang: 'en' | 'cn'): { title: string; body: string } {
  if (lang === 'cn') return { title: n.title_cn || n.title, body: n.body_cn || n.body };
  return { title: n.title, body: n.body };
}
