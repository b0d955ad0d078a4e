import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { UserInfo } from '../../../shared/schemas/user';

// The top of the profile tab: the photo (a link to change it), the name or e-mail address, and the badges.

const creditLabels = {
  excellent: <Trans>Excellent</Trans>,
  medium: <Trans>Medium</Trans>,
  poor: <Trans>Poor</Trans>,
} as const;

export function ProfileHead({ info, name }: { info: UserInfo | undefined; name: string }) {
  const { t } = useLingui();
  // A corporate account (a company's own login, or a member acting for it) is the company: its name heads
  // the profile, with the UEN and the email below.
  const company = info?.type === 'corporate' && info.company.trim() ? info.company.trim() : '';
  if (info && company) {
    return (
      <section className="profile-head" aria-label={t`Your account`}>
        <Link to="/pages/profile/cropper" className="profile-head__avatar" aria-label={t`Change profile photo`} data-testid="profile-avatar-link"><Avatar name={company} src={info.avatar} /></Link>
        <div className="profile-head__who">
          <h2 className="profile-head__name" data-testid="profile-name">
            {company}
          </h2>
          <p className="profile-head__email">
            {info.uen ? `UEN ${info.uen} · ` : ''}
            <Email address={info.email} />
          </p>
          <Badges info={info} />
        </div>
      </section>
    );
  }
  return (
    <section className="profile-head" aria-label={t`Your account`}>
      <Link to="/pages/profile/cropper" className="profile-head__avatar" aria-label={t`Change profile photo`} data-testid="profile-avatar-link"><Avatar name={name} src={info?.avatar} /></Link>
      <div className="profile-head__who">
        <h2 className={info && !info.realname ? 'profile-head__name profile-head__name--email' : 'profile-head__name'} data-testid="profile-name">
          {info && !info.realname ? <Email address={info.email} /> : name || '—'}
        </h2>
        {info && info.realname && (
          <p className="profile-head__email">
            <Email address={info.email} />
          </p>
        )}
        {info && <Badges info={info} />}
      </div>
    </section>
  );
}

/** The grade, credit and account-type badges, and what the credit badge measures. */
function Badges({ info }: { info: UserInfo }) {
  const { t } = useLingui();
  return (
    <>
      <div className="profile-head__badges">
        <span className="badge badge--grade" title={t`Membership grade`}>
          P{info.grade}
        </span>
        <span className={`badge badge--credit badge--${info.credit_score}`} aria-describedby="credit-note">
          <Trans>Credit: {creditLabels[info.credit_score]}</Trans>
        </span>
        {info.type === 'corporate' && (
          <span className="badge">
            <Trans>Corporate</Trans>
          </span>
        )}
      </div>
      {/* What the credit badge measures (docs/product.md#roles: credit score), so "Excellent" on a new account reads as a start, not a verdict. */}
      <p className="profile-head__note" id="credit-note" data-testid="credit-note">
        {info.credit_score === 'excellent' ? (
          <Trans>Credit starts at Excellent and drops only if a pre-sale's final payment is missed.</Trans>
        ) : (
          <Trans>Credit dropped because a pre-sale's final payment was missed.</Trans>
        )}
      </p>
    </>
  );
}

/** An e-mail address that wraps only before its "@", never inside a word; a part wider than the line ends
 *  in an ellipsis (the full address stays in the title). */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <span className="email-part">{address}</span>;
  return (
    <span className="email" title={address}>
      <span className="email-part">{address.slice(0, at)}</span>
      <wbr />
      <span className="email-part">{address.slice(at)}</span>
    </span>
  );
}

function Avatar({ name, src }: { name: string; src?: string }) {
  // Initials of a name ("Alex Tan" -> "AT"); an email address gives its first letter.
  const parts = name.includes('@') ? [name] : name.split(/\s+/).filter(Boolean);
  const initials =
    parts
      .slice(0, 2)
      .map((part) => Array.from(part)[0]!.toUpperCase())
      .join('') || '?';
  return (
    <span className="avatar" aria-hidden="true">
      {src ? <img src={src} alt="" width={64} height={64} /> : initials}
    </span>
  );
}
