import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { canShare, copyText, shareLink } from '../../lib/clipboard';
import { formatDate } from '../../lib/format';

/** The member's invitation code (copy, or share the register link that pre-fills it) and join date. */
export function InviteCard({ code, joinedAt }: { code: string; joinedAt: number }) {
  const { t } = useLingui();
  const link = `${location.origin}/pages/register/index?invite=${encodeURIComponent(code)}`;
  const share = { title: t`Join me on Canopy`, text: t`Buy verified carbon credits by the ton on Canopy. My invitation code: ${code}`, url: link };
  const copy = async (text: string, done: string) => showToast(await copyText(text) ? done : t`Could not copy. Please copy it by hand.`);
  const onShare = async () => {
    const outcome = await shareLink(share);
    if (outcome === 'failed') await copy(link, t`Invitation link copied`);
  };
  return (
    <section className="invite card" aria-labelledby="invite-title" data-testid="invite-card">
      <div className="invite__row">
        <div>
          <h2 className="invite__label" id="invite-title">
            <Trans>Your invitation code</Trans>
          </h2>
          <p className="invite__code" data-testid="invite-code">
            {code}
          </p>
        </div>
        <div className="invite__actions">
          <button type="button" className="btn btn--ghost btn--small" onClick={() => void copy(code, t`Invitation code copied`)} data-testid="invite-copy">
            <Trans>Copy</Trans>
          </button>
          {canShare(share) ? (
            <button type="button" className="btn btn--small" onClick={() => void onShare()} data-testid="invite-share">
              <Trans>Share</Trans>
            </button>
          ) : (
            <button type="button" className="btn btn--small" onClick={() => void copy(link, t`Invitation link copied`)} data-testid="invite-copy-link">
              <Trans>Copy link</Trans>
            </button>
          )}
        </div>
      </div>
      <p className="invite__joined muted" data-testid="joined-at">
        <Trans>Member since {formatDate(joinedAt)}</Trans>
      </p>
    </section>
  );
}
