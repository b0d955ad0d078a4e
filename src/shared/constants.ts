// Business and client constants (docs/product.md#limits, docs/product.md#fees). One place, used by app and
// server.

export const REQUEST_TIMEOUT_MS = 60_000;
export const LAZY_PAGE_TIMEOUT_MS = 60_000;
export const LAZY_PAGE_DELAY_MS = 200;
export const TOAST_MS = 1500;
export const SWIPER_INTERVAL_MS = 5000;
export const SWIPER_DURATION_MS = 500;
export const TEXT_MAX_LENGTH = 140;
export const SCROLL_BOTTOM_DISTANCE_PX = 80;
export const ENVELOPE_DEFAULT_WAIT = 3;

export const SOCKET_VERSION = 4;
export const SOCKET_CONNECT_DELAY_MS = 300;
export const SOCKET_RECONNECT_TRIES = 5;
export const SOCKET_RECONNECT_INTERVAL_MS = 5000;
export const SOCKET_HEARTBEAT_MS = 50_000;
export const SOCKET_PATH = '/h5/ws';

export const LOGIN_MAX_ATTEMPTS = 5;
export const PASSWORD_MAX_ATTEMPTS = 5;
export const VERIFICATION_CODE_TTL_MS = 10 * 60_000;
export const VERIFICATION_CODE_TRIES = 5;
export const PAGE_SIZE = 10;
export const PAGE_SIZE_MAX = 50;

// Passkeys (docs/product.md#passkeys): a challenge is good for two minutes (the browser's own prompt times
// out after one), a member keeps at most ten, and a device name is short enough for one line of the list.
export const PASSKEY_CHALLENGE_TTL_MS = 2 * 60_000;
export const PASSKEY_PROMPT_TIMEOUT_MS = 60_000;
export const PASSKEYS_PER_USER_MAX = 10;
export const PASSKEY_NAME_MAX_LENGTH = 40;
