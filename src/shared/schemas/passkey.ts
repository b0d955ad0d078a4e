import * as v from 'valibot';
import { PASSKEY_NAME_MAX_LENGTH } from '../constants';
import { epochMs, int, isoTime, requiredText } from './common';

// Passkeys (docs/product.md#passkeys): the requests that add, list, remove and sign in with one, and the
// WebAuthn options and responses as @simplewebauthn's browser and server halves exchange them (JSON, binary
// fields in base64url). Request messages are catalogue keys.

/** base64url as WebAuthn's JSON carries binary fields; 64 KiB bodies bound the whole. */
const b64url = v.pipe(v.string('invalid_request'), v.regex(/^[A-Za-z0-9_-]*$/, 'invalid_request'), v.maxLength(16_384, 'invalid_request'));
const transports = v.optional(v.pipe(v.array(v.picklist(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'], 'invalid_request'), 'invalid_request'), v.maxLength(8, 'invalid_request')));
const extensionResults = v.optional(v.record(v.string(), v.unknown(), 'invalid_request'), {});
const attachment = v.optional(v.picklist(['platform', 'cross-platform'], 'invalid_request'));

/** What navigator.credentials.create() answered (startRegistration of @simplewebauthn/browser). */
export const registrationResponseSchema = v.object(
  {
    id: b64url,
    rawId: b64url,
    type: v.literal('public-key', 'invalid_request'),
    response: v.object(
      {
        clientDataJSON: b64url,
        attestationObject: b64url,
        authenticatorData: v.optional(b64url),
        transports,
        publicKeyAlgorithm: v.optional(v.number('invalid_request')),
        publicKey: v.optional(b64url),
      },
      'invalid_request',
    ),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  },
  'invalid_request',
);

/** What navigator.credentials.get() answered (startAuthentication of @simplewebauthn/browser). */
export const authenticationResponseSchema = v.object(
  {
    id: b64url,
    rawId: b64url,
    type: v.literal('public-key', 'invalid_request'),
    response: v.object(
      {
        clientDataJSON: b64url,
        authenticatorData: b64url,
        signature: b64url,
        userHandle: v.optional(b64url),
      },
      'invalid_request',
    ),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  },
  'invalid_request',
);

/** POST user/passkeys/options: the login password proves it is the member before a passkey is added. */
export const passkeyOptionsSchema = v.object(
  {
    password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long')),
  },
  'required',
);

/** The add form on the passkeys screen: the name it will keep and the login password the options ask. */
export const passkeyFormSchema = v.object(
  {
    name: requiredText(PASSKEY_NAME_MAX_LENGTH),
    password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(140, 'too_long')),
  },
  'required',
);

/** POST user/passkeys/add: the device name the member gives it and what the authenticator answered. */
export const passkeyAddSchema = v.object(
  {
    name: requiredText(PASSKEY_NAME_MAX_LENGTH),
    credential: registrationResponseSchema,
  },
  'required',
);

/** POST user/passkeys/remove. */
export const passkeyRemoveSchema = v.object({ id: v.pipe(v.number('invalid_request'), v.safeInteger('invalid_request'), v.minValue(1, 'invalid_request')) }, 'required');

/** POST login/passkey: a sign-in with a passkey. */
export const passkeyLoginSchema = v.object({ credential: authenticationResponseSchema }, 'required');

// ---- Answers

const credentialDescriptor = v.strictObject({
  id: v.string(),
  type: v.literal('public-key'),
  transports: v.optional(v.array(v.string())),
});

/** The options for navigator.credentials.create(), as generateRegistrationOptions gives them. */
export const passkeyCreationOptionsSchema = v.strictObject({
  challenge: v.string(),
  rp: v.strictObject({ name: v.string(), id: v.optional(v.string()) }),
  user: v.strictObject({ id: v.string(), name: v.string(), displayName: v.string() }),
  pubKeyCredParams: v.array(v.strictObject({ alg: int(), type: v.literal('public-key') })),
  timeout: v.optional(int()),
  attestation: v.optional(v.string()),
  excludeCredentials: v.optional(v.array(credentialDescriptor)),
  authenticatorSelection: v.optional(
    v.strictObject({
      authenticatorAttachment: v.optional(v.string()),
      residentKey: v.optional(v.string()),
      requireResidentKey: v.optional(v.boolean()),
      userVerification: v.optional(v.string()),
    }),
  ),
  extensions: v.optional(v.strictObject({ credProps: v.optional(v.boolean()) })),
  hints: v.optional(v.array(v.string())),
});

/** The options for navigator.credentials.get(), as generateAuthenticationOptions gives them. */
export const passkeyRequestOptionsSchema = v.strictObject({
  challenge: v.string(),
  rpId: v.optional(v.string()),
  timeout: v.optional(int()),
  userVerification: v.optional(v.string()),
  allowCredentials: v.optional(v.array(credentialDescriptor)),
  hints: v.optional(v.array(v.string())),
});

/** One passkey in the member's list. */
export const passkeyItemSchema = v.strictObject({
  id: int(),
  name: v.string(),
  created_at: isoTime(),
  created_at_ms: epochMs(),
  last_used_at: v.nullable(isoTime()),
  last_used_at_ms: v.nullable(epochMs()),
});
export type PasskeyItem = v.InferOutput<typeof passkeyItemSchema>;

/** GET user/passkeys: every passkey of the member (at most PASSKEYS_PER_USER_MAX), newest first. */
export const passkeyListSchema = v.strictObject({ list: v.array(passkeyItemSchema) });
export type PasskeyList = v.InferOutput<typeof passkeyListSchema>;
