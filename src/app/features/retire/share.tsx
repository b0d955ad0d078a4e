import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { certificateHref } from './api';

/** Shares a certificate's link with the Web Share API, or copies it where there is none. */
export function ShareButton({ id, title }: { id: string; title?: string }) {
  const { t } = useLingui();
  const share = async () => {
    const url = certificateHref(id);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: title ?? t`Carbon credit retirement certificate`, url });
        return;
      } catch (err) {
        if ((err as Error).name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      showToast(t`Link copied`, 'success');
    } catch {
      window.prompt(t`Copy this link`, url);
    }
  };
  return (
    <button type="button" className="btn btn--ghost btn--block" onClick={() => void share()} data-testid="share-certificate">
      <Trans>Share link</Trans>
    </button>
  );
}
