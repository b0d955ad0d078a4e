// Copy and share, the two ways a phone hands text to another app.

/** Puts text on the clipboard; false when the browser refuses (no permission, no clipboard API and no copy command). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Older browsers, or no permission: a selected textarea and the copy command.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** True where the Web Share API can share this (most phones); elsewhere the screen offers copy only. */
export function canShare(data: ShareData): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function' && (typeof navigator.canShare !== 'function' || navigator.canShare(data));
}

/** Opens the system share sheet; 'cancelled' when the person closed it (not an error to report). */
export async function shareLink(data: ShareData): Promise<'shared' | 'cancelled' | 'failed'> {
  try {
    await navigator.share(data);
    return 'shared';
  } catch (err) {
    return err instanceof DOMException && err.name === 'AbortError' ? 'cancelled' : 'failed';
  }
}
