import { useCallback, useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { post } from '../../lib/api';
import { clearPrivateCache } from '../../lib/db';
import { clearSession } from '../../lib/storage';
import { PATHS } from '../../../shared/api';

/** Log out: this device's notifications off, the server revokes the token, then the device forgets the session and goes to the login page. */
export function useLogout() {
  const router = useRouter();
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const logout = useCallback(async () => {
    setBusy(true);
    try {
      // This device's notifications belong to the account leaving it: turned off while the token still works.
      await import('../../lib/push').then((m) => m.disablePush()).catch(() => undefined);
      const res = await post(PATHS.logout, {});
      // Only a transport failure keeps the session (the request layer already said "Network error");
      // any answer from the server means the token is gone or no longer good.
      if (res.code > 0 && res.code < 1000) return;
      clearSession();
      await clearPrivateCache(); // every user table, not only what this screen shows
      showToast(t`You have logged out.`, 'success');
      void router.navigate({ to: '/pages/login/index', replace: true });
    } finally {
      setBusy(false);
    }
  }, [router, t]);
  return { logout, busy };
}
