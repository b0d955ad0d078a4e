import { useLingui } from '@lingui/react/macro';
import { useUnreadNotices } from '../lib/notice-badge';

// The profile tab's unread notice count: a red count on the icon, and for screen readers the
// link's name goes on as "Profile, 3 unread". Loaded lazily, for a signed-in member only (the tab bar is
// on the home screen, whose JS is budgeted).
export default function TabBadge() {
  const { t } = useLingui();
  const unread = useUnreadNotices();
  if (unread <= 0) return null;
  return (
    <>
      <span className="tabbar-badge" aria-hidden="true" data-testid="unread-badge">
        {unread > 99 ? '99+' : unread}
      </span>
      <span className="sr-only">{t`, ${unread} unread`}</span>
    </>
  );
}
