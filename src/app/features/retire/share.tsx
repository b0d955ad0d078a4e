import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { canShare, copyText, shareLink } from '../../lib/clipboard';
import { certificateHref } from './api';

/** Shares a certificate's link with the Web Share API, or copies it where there is none. */
export function ShareButton({ id, title }: { id: string; title?: string }) {
  const { t } = useLingui();
  const share = async () => {
    const url = certificateHref(id);
    const data = { title: title ?? t`Carbon credit retirement certificate`, url };
    if (canShare(data) && (await shareLink(data)) !== 'failed') return;
    if (await copyText(url)) showToast(t`Link copied`, 'success');
    else window.prompt(t`Copy this link`, url);
  };
  return (
    <button type="button" className="btn btn--ghost btn--block" onClick={() => void share()} data-testid="share-certificate">
      <Trans>Share link</Trans>
    </button>
  );
}
