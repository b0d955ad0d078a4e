import { get, post, type ApiResult } from '../../lib/api';
import { wireLang } from '../../lib/i18n';
import { getSession } from '../../lib/storage';
import { API_BASE, PATHS } from '../../../shared/api';
import type { IccCap, PackVerdict } from '../../../shared/schemas/icc';

// Singapore carbon tax (docs/product.md#singapore-carbon-tax): the account's cap per compliance year, its
// taxable emissions, the evidence pack download, and the public check of a pack. Online only: the cap
// moves with every retirement, and a pack is issued by the server.

export const fetchCap = (year: number) => get<IccCap>(PATHS.iccCap, { year }, { quiet: true, fresh: true });

export function saveEmissions(input: { year: number; taxable_tons: number }, key: string): Promise<ApiResult<IccCap>> {
  return post<IccCap>(PATHS.iccEmissions, { ...input }, { idempotencyKey: key });
}

export type PackDownload = { ok: true; hash: string; filename: string; blob: Blob } | { ok: false; msg: string };

/** Fetches a pack with the session's token and keeps its bytes, name and SHA-256 (the response header). */
export async function downloadPack(q: { from: string; to: string; format: 'pdf' | 'csv' }): Promise<PackDownload> {
  const qs = new URLSearchParams({ ...q, lang: wireLang() });
  const res = await fetch(`${API_BASE}${PATHS.iccPack}?${qs.toString()}`, { headers: { Authorization: getSession().token }, cache: 'no-store' });
  const hash = res.headers.get('X-Canopy-Pack-Sha256');
  if (!res.ok || !hash) {
    const body = (await res.json().catch(() => null)) as { msg?: string } | null;
    return { ok: false, msg: body?.msg ?? '' };
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? `canopy-carbon-tax.${q.format}`;
  return { ok: true, hash, filename, blob: await res.blob() };
}

/** Hands a downloaded file to the browser to save. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const verifyPack = (hash: string) => get<PackVerdict>(PATHS.verifyPack.replace(':hash', hash), {}, { quiet: true, fresh: true });

/** The SHA-256 of a file, in hex, computed in the browser: the file never leaves the device. */
export async function sha256Hex(file: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
