import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { post, type ApiResult } from '../../lib/api';
import { wireLang } from '../../lib/i18n';
import { PATHS } from '../../../shared/api';
import { isIpHost } from '../../../shared/hosts';
import { ERRORS, errorMessage } from '../../../shared/errors';
import type { LoginInfo } from '../../../shared/schemas/auth';

// "Sign in with a passkey" (docs/product.md#passkeys): a challenge from the server, the device's own prompt
// (the passkeys it holds for this site: no e-mail asked), then the server's answer, login info as a login's.
// The browser half of SimpleWebAuthn loads only on the tap.

/** Whether this browser can sign in with a passkey here: it has WebAuthn, and the page is at a host name
 *  (browsers refuse an IP address as the RP ID, so at http://127.0.0.1 the button would always fail). */
export const passkeysSupported = (): boolean => typeof window !== 'undefined' && 'PublicKeyCredential' in window && !isIpHost(window.location.hostname);

export async function signInWithPasskey(): Promise<ApiResult<LoginInfo>> {
  const options = await post<PublicKeyCredentialRequestOptionsJSON>(PATHS.passkeyLoginOptions, {}, { quiet: true });
  if (options.code !== 0 || !options.data) return options as unknown as ApiResult<LoginInfo>;
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let credential: AuthenticationResponseJSON;
  try {
    credential = await startAuthentication({ optionsJSON: options.data });
  } catch {
    // Cancelled, timed out, or no passkey for this site on the device.
    return { code: ERRORS.passkey_failed.code, msg: errorMessage('passkey_failed', wireLang()), data: null as unknown as LoginInfo, wait: 3, time: Date.now() };
  }
  return post<LoginInfo>(PATHS.passkeyLogin, { credential }, { quiet: true });
}
