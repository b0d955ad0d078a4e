// A software WebAuthn authenticator for the server tests: a P-256 key from node:crypto, attestation
// 'none', assertions signed as a platform authenticator signs them (authenticator data, then the SHA-256 of
// the client data; ECDSA, DER). What a browser would add (the client data with its origin) is written here
// too, so a test can claim any origin or replay anything.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [k: string]: Cbor };

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** The CBOR WebAuthn needs: integers, text, bytes, arrays and maps. */
function cbor(x: Cbor): Buffer {
  if (typeof x === 'number') return x >= 0 ? head(0, x) : head(1, -1 - x);
  if (typeof x === 'string') return Buffer.concat([head(3, Buffer.byteLength(x)), Buffer.from(x)]);
  if (x instanceof Uint8Array) return Buffer.concat([head(2, x.length), Buffer.from(x)]);
  if (Array.isArray(x)) return Buffer.concat([head(4, x.length), ...x.map(cbor)]);
  const entries = x instanceof Map ? [...x.entries()] : Object.entries(x);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, val]) => [cbor(k), cbor(val)])]);
}

const b64u = (b: Uint8Array | string): string => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string): Buffer => createHash('sha256').update(b).digest();

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
  excludeCredentials?: unknown[];
}
export interface RequestOptions {
  challenge: string;
  rpId?: string;
}

/** One authenticator holding one passkey. `counter` is public so a test can wind it back. */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  userHandle = '';
  counter = 0;

  constructor() {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  /** What navigator.credentials.create() answers for these options, made at `origin`. */
  create(options: CreationOptions, origin: string, opts: { rpId?: string; type?: string } = {}) {
    this.userHandle = options.user.id;
    const rpId = opts.rpId ?? options.rp.id ?? '';
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | UV | AT]), u32(this.counter), Buffer.alloc(16), idLen, this.credentialId, this.coseKey()]);
    const clientData = JSON.stringify({ type: opts.type ?? 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64u(clientData), attestationObject: b64u(cbor({ fmt: 'none', attStmt: {}, authData })), transports: ['internal' as const] },
      clientExtensionResults: {},
    };
  }

  /** What navigator.credentials.get() answers for these options, made at `origin`; the counter moves on. */
  get(options: RequestOptions, origin: string, opts: { rpId?: string; type?: string } = {}) {
    this.counter += 1;
    const authData = Buffer.concat([sha256(opts.rpId ?? options.rpId ?? ''), Buffer.from([UP | UV]), u32(this.counter)]);
    const clientData = JSON.stringify({ type: opts.type ?? 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64u(clientData), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: this.userHandle },
      clientExtensionResults: {},
    };
  }
}
