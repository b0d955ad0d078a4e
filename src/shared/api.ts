// API paths and the response envelope (docs/product.md#api-conventions).
export const API_BASE = '/h5/api';

export const PATHS = {
  baseconfig: '/api/login/baseconfig',
  sendcode: '/api/login/sendcode',
  register: '/api/login/register',
  login: '/api/login/login',
  visitor: '/api/login/visitor',
  reset: '/api/login/reset',
  logout: '/api/login/logout',
  passkeyLoginOptions: '/api/login/passkey/options',
  passkeyLogin: '/api/login/passkey',
  passkeys: '/api/user/passkeys',
  passkeyOptions: '/api/user/passkeys/options',
  passkeyAdd: '/api/user/passkeys/add',
  passkeyRemove: '/api/user/passkeys/remove',
  userInfo: '/api/user/info',
  userMembership: '/api/user/membership',
  userWithdpwd: '/api/user/withdpwd',
  userCard: '/api/user/card',
  userProfile: '/api/user/profile',
  userLoginpwd: '/api/user/loginpwd',
  walletTopup: '/api/wallet/topup',
  walletTopups: '/api/wallet/topups',
  walletWithdraw: '/api/wallet/withdraw',
  walletWithdrawals: '/api/wallet/withdrawals',
  walletFundlogs: '/api/wallet/fundlogs',
  orderBuy: '/api/order/buy',
  orderBook: '/api/order/book',
  orderFinalpay: '/api/order/finalpay',
  orderSell: '/api/order/sell',
  orderLists: '/api/order/lists',
  orderCredits: '/api/order/credits',
  orderDetail: '/api/order/detail',
  orderLimits: '/api/order/limits',
  notifications: '/api/user/notifications',
  notificationsRead: '/api/user/notifications/read',
  pushKey: '/api/user/push/key',
  pushSubscribe: '/api/user/push/subscribe',
  pushUnsubscribe: '/api/user/push/unsubscribe',
  userFootprint: '/api/user/footprint',
  userAvatar: '/api/user/avatar',
  /** GET /avatar/<sha256>.webp: a stored avatar (the URL the user's `avatar` field holds). */
  avatarFile: '/avatar/:name',
  projectLists: '/api/project/lists',
  projectDetail: '/api/project/detail',
  newsLists: '/api/news/lists',
  newsDetail: '/api/news/detail',
  faqLists: '/api/content/faq',
  page: '/api/content/page',
  banners: '/api/content/banners',
  iccCap: '/api/icc/cap',
  iccEmissions: '/api/icc/emissions',
  /** GET: the account's evidence pack (PDF or CSV, not enveloped); its SHA-256 in X-Canopy-Pack-Sha256. */
  iccPack: '/api/icc/pack',
  /** GET /api/verify/pack/<sha256>: whether Canopy issued a pack with that hash (no session). */
  verifyPack: '/api/verify/pack/:hash',
  offsetCreate: '/api/offset/create',
  offsetChange: '/api/offset/change',
  offsetStatus: '/api/offset/status',
  offsetLists: '/api/offset/lists',
  creditRetire: '/api/credit/retire',
  creditRetirements: '/api/credit/retirements',
  /** GET /api/public/certificate/<id>: one retirement's public certificate (no session). */
  publicCertificate: '/api/public/certificate/:id',
  /** GET /api/public/certificate/<id>/pdf: the same certificate as an A4 PDF download (no session). */
  publicCertificatePdf: '/api/public/certificate/:id/pdf',
  publicTransparency: '/api/public/transparency',
  /** Organisations (docs/product.md#organisations): the caller's organisations and the context switch. */
  orgMine: '/api/org/mine',
  orgSwitch: '/api/org/switch',
  orgMembers: '/api/org/members',
  orgInvite: '/api/org/invite',
  orgJoin: '/api/org/join',
  orgInvitation: '/api/org/invitation',
  orgRole: '/api/org/role',
  orgRemove: '/api/org/remove',
  orgActivity: '/api/org/activity',
  /** GET: the activity log as CSV (owner and admins). */
  orgActivityCsv: '/api/org/activity.csv',
  receiptLists: '/api/receipt/lists',
  receiptDetail: '/api/receipt/detail',
  /** GET /api/receipt/pdf?id=<id>: one of the caller's receipts as an A4 PDF download. */
  receiptPdf: '/api/receipt/pdf',
  /** Approvals (docs/product.md#approvals): requests waiting for an approver, decisions, thresholds. */
  approvalList: '/api/approval/list',
  approvalApprove: '/api/approval/approve',
  approvalDecline: '/api/approval/decline',
  approvalCancel: '/api/approval/cancel',
  approvalThresholds: '/api/approval/thresholds',
  /** The integrators' API keys (docs/product.md#integrators): create (secret shown once), list, revoke,
   *  rotate; and the test mode's play money. */
  developerKeys: '/api/developer/keys',
  developerKeysRevoke: '/api/developer/keys/revoke',
  developerKeysRotate: '/api/developer/keys/rotate',
  developerSandboxTopup: '/api/developer/sandbox/topup',
  /** Webhooks (docs/product.md#webhooks): endpoints (list with GET, add with POST), rotation, removal, a
   *  ping, the delivery log and a resend. */
  webhooks: '/api/developer/webhooks',
  webhookRotate: '/api/developer/webhooks/rotate',
  webhookDelete: '/api/developer/webhooks/delete',
  webhookPing: '/api/developer/webhooks/ping',
  webhookDeliveries: '/api/developer/webhooks/deliveries',
  webhookResend: '/api/developer/webhooks/resend',
  openapi: '/openapi.json',
  /** GET: the interactive API reference (Swagger UI) and its files (docs/decisions/0012-api-contract.md). */
  docs: '/docs',
  docsAsset: '/docs/:file',
} as const;

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  wait?: number;
  time?: string | number;
}

export interface Paged<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
  /** Keyset lists (projects, news): an opaque position to pass back as `cursor` for the page after this
   *  one, null on the last page. The page number keeps working beside it. */
  next_cursor?: string | null;
}

/** Wire languages (cn and en: docs/product.md#api-conventions) and the app's BCP 47 locale ids. */
export type WireLang = 'en' | 'cn';
export type Locale = 'en' | 'zh-Hans';
export const localeToWire = (locale: Locale): WireLang => (locale === 'zh-Hans' ? 'cn' : 'en');
