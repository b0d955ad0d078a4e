// PayNow QR payloads (SGQR, EMVCo merchant-presented mode), built by our own small module: the
// npm packages for it are unmaintained and have padding and encoding bugs. A payload is a string of TLV
// fields: a two-digit id, a two-digit length, the value; templates (26, 62) hold TLV fields of their own.
// The last field (63) is the CRC-16/CCITT-FALSE over everything before it, "6304" included.
// Decisions: docs/decisions/0014-paynow.md.

export interface TlvField {
  id: string;
  value: string;
}

/** One TLV field: id (2 digits) + length (2 digits) + value. Values are ASCII, at most 99 characters. */
export function tlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new Error(`TLV id must be two digits, got "${id}"`);
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`TLV ${id}: only printable ASCII is allowed`);
  if (value.length > 99) throw new Error(`TLV ${id}: value longer than 99 characters`);
  return id + String(value.length).padStart(2, '0') + value;
}

/** Splits a TLV string into its fields, in order; throws on a truncated or malformed string. */
export function parseTlv(text: string): TlvField[] {
  const fields: TlvField[] = [];
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const len = text.slice(i + 2, i + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(len)) throw new Error(`malformed TLV at position ${i}`);
    const n = Number(len);
    const value = text.slice(i + 4, i + 4 + n);
    if (value.length !== n) throw new Error(`TLV ${id} at position ${i} is truncated`);
    fields.push({ id, value });
    i += 4 + n;
  }
  return fields;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor): four upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= (text.charCodeAt(i) & 0xff) << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const SGT_OFFSET_MS = 8 * 3600_000;

/** YYYYMMDD of an instant in Singapore time (UTC+8, no daylight saving). */
export function sgtYmd(ms: number): string {
  return new Date(ms + SGT_OFFSET_MS).toISOString().slice(0, 10).replace(/-/g, '');
}

/** Payee names and references are limited to 25 characters (the bank apps' display limit). */
export const PAYNOW_NAME_MAX = 25;
export const REFERENCE_MAX = 25;
export const REFERENCE_PATTERN = /^[A-Z0-9-]{1,25}$/;

export interface PayNowInput {
  /** The payee's UEN (PayNow proxy type 2). */
  uen: string;
  /** The merchant name shown by the bank app (field 59), at most 25 characters. */
  name: string;
  /** The fixed amount in cents (field 54, written with two decimals). */
  amountCents: number;
  /** The bill reference (template 62, sub-field 01). */
  reference: string;
  /** The expiry: the SGT calendar day of this instant (template 26, sub-field 04, YYYYMMDD). */
  expiry: number;
}

/** The fields a payload carries, as parsePayNowPayload reads them back. */
export interface PayNowFields {
  uen: string;
  name: string;
  amountCents: number;
  reference: string;
  /** YYYYMMDD (SGT). */
  expiry: string;
  editable: boolean;
  city: string;
  country: string;
  currency: string;
}

/** "1.99" for 199 cents: the amount with two decimals, no grouping. */
export function amountText(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new Error(`amount must be a positive whole number of cents, got ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The PayNow QR payload string for a fixed-amount payment to a UEN, with a reference and an expiry. */
export function buildPayNowPayload(input: PayNowInput): string {
  if (input.name.length === 0 || input.name.length > PAYNOW_NAME_MAX) throw new Error(`name must be 1 to ${PAYNOW_NAME_MAX} characters`);
  if (!REFERENCE_PATTERN.test(input.reference)) throw new Error(`reference must be 1 to ${REFERENCE_MAX} characters from A-Z, 0-9 and -`);
  if (!/^[0-9A-Z]{9,10}$/.test(input.uen)) throw new Error('UEN must be 9 or 10 characters from 0-9 and A-Z');
  const merchant = tlv('00', 'SG.PAYNOW') + tlv('01', '2') + tlv('02', input.uen) + tlv('03', '0') + tlv('04', sgtYmd(input.expiry));
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', merchant) +
    tlv('52', '0000') +
    tlv('53', '702') +
    tlv('54', amountText(input.amountCents)) +
    tlv('58', 'SG') +
    tlv('59', input.name) +
    tlv('60', 'Singapore') +
    tlv('62', tlv('01', input.reference)) +
    '6304';
  return body + crc16(body);
}

/** True when the payload ends with field 63 holding the right CRC of everything before it. */
export function payloadCrcOk(payload: string): boolean {
  return payload.length > 8 && payload.slice(-8, -4) === '6304' && crc16(payload.slice(0, -4)) === payload.slice(-4);
}

function field(fields: TlvField[], id: string): string {
  const found = fields.find((f) => f.id === id);
  if (!found) throw new Error(`field ${id} is missing`);
  return found.value;
}

/** Reads a PayNow payload back into its fields; throws when the CRC is wrong or a field is missing. */
export function parsePayNowPayload(payload: string): PayNowFields {
  if (!payloadCrcOk(payload)) throw new Error('CRC does not match');
  const top = parseTlv(payload);
  const merchant = parseTlv(field(top, '26'));
  if (field(merchant, '00') !== 'SG.PAYNOW') throw new Error('not a PayNow payload');
  if (field(merchant, '01') !== '2') throw new Error('not a UEN proxy');
  const amount = field(top, '54');
  if (!/^\d+\.\d{2}$/.test(amount)) throw new Error(`amount "${amount}" is not written with two decimals`);
  return {
    uen: field(merchant, '02'),
    editable: field(merchant, '03') === '1',
    expiry: field(merchant, '04'),
    name: field(top, '59'),
    amountCents: Number(amount.replace('.', '')),
    reference: field(parseTlv(field(top, '62')), '01'),
    city: field(top, '60'),
    country: field(top, '58'),
    currency: field(top, '53'),
  };
}

/** Characters of generated references: no 0/O, 1/I/L confusion when a user types one by hand. */
const REF_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A fresh top-up reference: "CNP" and 12 random characters (about 59 bits), 15 characters in all, no
 *  dashes or spaces a bank could drop. The server still relies on the unique index for uniqueness. */
export function generateReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `CNP${Array.from(bytes, (b) => REF_ALPHABET[b % REF_ALPHABET.length]).join('')}`;
}

/** What matching compares: upper case, spaces dropped. */
export function normalizeReference(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** The one shape of a top-up reference: what generateReference draws. A client may send its own only in
 *  this shape, so no reference can be a word every bank line carries ("PAYNOW", "INCOMING..."). */
export const TOPUP_REFERENCE_PATTERN = /^CNP[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{12}$/;
const REFERENCE_IN_TEXT = /CNP[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{12}/g;

/** Every top-up reference found in a bank line's text (upper case, spaces dropped), each once. */
export function referencesIn(text: string): string[] {
  return [...new Set(normalizeReference(text).match(REFERENCE_IN_TEXT) ?? [])];
}
