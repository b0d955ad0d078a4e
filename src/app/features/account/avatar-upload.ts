import { getSession } from '../../lib/storage';
import { wireLang } from '../../lib/i18n';
import { noteReachable } from '../../lib/online';
import { API_BASE, PATHS } from '../../../shared/api';
import { REQUEST_TIMEOUT_MS } from '../../../shared/constants';
import { errorMessage } from '../../../shared/errors';
import type { AvatarAnswer } from '../../../shared/schemas/user';

// The avatar's upload: the cropped picture as the raw body of an XMLHttpRequest (fetch has no upload
// progress), with the headers of lib/api.ts (the session token, the intent's Idempotency-Key; lang in the
// query, since the body is not JSON). Cancelling aborts the request: the server either never got the whole
// picture (nothing changes) or already answered (the key makes a retry of the same picture harmless).

/** The envelope's code and msg, with the answer's avatar ('' on a refusal). */
export type AvatarResult = { code: number; msg: string } & AvatarAnswer;

export interface AvatarUpload {
  done: Promise<AvatarResult | 'aborted'>;
  abort(): void;
}

function envelope(text: string): { code: number; msg: string; data: unknown } | null {
  try {
    const body = JSON.parse(text) as { code?: unknown; msg?: unknown; data?: unknown };
    return typeof body.code === 'number' ? { code: body.code, msg: typeof body.msg === 'string' ? body.msg : '', data: body.data } : null;
  } catch {
    return null;
  }
}

export function uploadAvatar(picture: Blob, idempotencyKey: string, onProgress: (fraction: number) => void): AvatarUpload {
  const xhr = new XMLHttpRequest();
  const lang = wireLang();
  const done = new Promise<AvatarResult | 'aborted'>((resolve) => {
    const fail = (key: 'network_error' | 'timeout_retry' | 'offline', code: number) => resolve({ code, msg: errorMessage(key, lang), avatar: '' });
    xhr.open('POST', `${API_BASE}${PATHS.userAvatar}?lang=${lang}&t=${Date.now()}`);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    xhr.withCredentials = true;
    xhr.setRequestHeader('Authorization', getSession().token);
    xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
    xhr.setRequestHeader('Content-Type', picture.type || 'image/jpeg');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onabort = () => resolve('aborted');
    xhr.onerror = () => {
      noteReachable(false);
      fail(navigator.onLine === false ? 'offline' : 'network_error', 1);
    };
    xhr.ontimeout = () => fail('timeout_retry', 2);
    xhr.onload = () => {
      noteReachable(xhr.status > 0 && xhr.status < 500);
      const env = envelope(xhr.responseText);
      // 413 (too large) and 429 (throttled) carry the catalogue envelope in the user's language.
      if (env && (xhr.status === 200 || env.code > 0)) {
        const data = env.data as { avatar?: unknown } | null;
        resolve({ code: env.code, msg: env.msg, avatar: typeof data?.avatar === 'string' ? data.avatar : '' });
        return;
      }
      fail('network_error', xhr.status || 1);
    };
    xhr.send(picture);
  });
  return { done, abort: () => xhr.abort() };
}

/** Loads a picture (an object URL) as an image element, or null when the browser cannot decode it. */
export function loadImage(src: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img.naturalWidth > 0 ? img : null);
    img.onerror = () => resolve(null);
    img.src = src;
  });
}

export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const AVATAR_PX = 512;

/**
 * The square the user framed, rotated as they turned it, drawn straight into a 512x512 canvas (no
 * full-size intermediate: a 12-megapixel photo is never copied). `area` is react-easy-crop's
 * croppedAreaPixels, measured on the rotated picture's bounding box.
 */
export function cropToBlob(img: HTMLImageElement, area: PixelArea, rotation: number): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_PX;
  canvas.height = AVATAR_PX;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.resolve(null);
  const w = img.naturalWidth;
  const h = img.naturalHeight;
  const rad = (rotation * Math.PI) / 180;
  const boxW = Math.abs(Math.cos(rad) * w) + Math.abs(Math.sin(rad) * h);
  const boxH = Math.abs(Math.sin(rad) * w) + Math.abs(Math.cos(rad) * h);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, AVATAR_PX, AVATAR_PX);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.scale(AVATAR_PX / area.width, AVATAR_PX / area.height);
  ctx.translate(-area.x, -area.y);
  ctx.translate(boxW / 2, boxH / 2);
  ctx.rotate(rad);
  ctx.translate(-w / 2, -h / 2);
  ctx.drawImage(img, 0, 0);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/jpeg', 0.9));
}
