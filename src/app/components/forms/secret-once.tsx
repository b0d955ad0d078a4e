import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { copyText } from '../../lib/clipboard';
import { keepNotice } from '../page-notice';
import { showToast } from '../toast';
import './forms.css';

/**
 * A secret Canopy shows this once and then keeps only a fingerprint of (a new API key, a webhook's signing
 * secret): its title, the warning, the value, Copy, and "I have saved it", which closes the card for good.
 * `testId` names the card's parts: `<testId>-secret-card`, `-secret`, `-copy` and `-secret-done`.
 */
export function SecretOnce({ title, warning, secret, copyFailed, testId, onDone }: { title: ReactNode; warning: ReactNode; secret: string; copyFailed: string; testId: string; onDone: () => void }) {
  const { t } = useLingui();
  const copy = async () => {
    // Copied is small news (a toast); a refused copy stays on the screen until read.
    if (await copyText(secret)) showToast(t`Copied.`, 'success');
    else keepNotice(copyFailed, 'error');
  };
  return (
    <section className="card secret-once" role="status" data-testid={`${testId}-secret-card`}>
      <h2 className="secret-once__title">{title}</h2>
      <p className="secret-once__warning">{warning}</p>
      <code className="secret-once__value" data-testid={`${testId}-secret`}>
        {secret}
      </code>
      <div className="secret-once__actions">
        <button type="button" className="btn" onClick={() => void copy()} data-testid={`${testId}-copy`}>
          <Trans>Copy</Trans>
        </button>
        <button type="button" className="btn btn--ghost" onClick={onDone} data-testid={`${testId}-secret-done`}>
          <Trans>I have saved it</Trans>
        </button>
      </div>
    </section>
  );
}
