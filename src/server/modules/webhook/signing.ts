import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signatures (standardwebhooks.com): the secret is `whsec_` + base64 of random bytes; a
// delivery is signed with HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}` under the decoded
// secret, sent as `v1,<base64>`; several signatures (a rotation's overlap) are separated by spaces.

const SECRET_BYTES = 32;
export const SECRET_PREFIX = 'whsec_';

/** A new signing key, base64 (what is stored; shown once with its prefix). */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64');
}

export function sign(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', Buffer.from(secret, 'base64')).update(`${msgId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three headers of one try: every secret in `secrets` signs it. */
export function signedHeaders(secrets: readonly string[], msgId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => sign(s, msgId, timestampSeconds, body)).join(' '),
  };
}
