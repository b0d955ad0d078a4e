import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';

// The avatar's endpoints, for ENDPOINTS in src/server/openapi.ts (`...AVATAR_ENDPOINTS`).
export const AVATAR_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.userAvatar,
    summary:
      'Upload an avatar: the picture as the raw body (JPEG, PNG or WebP by its bytes; at most 5 MiB and 40 megapixels), lang in the query. Re-encoded to 512x512 WebP without metadata',
    auth: 'user',
    gives: '{avatar: the URL path of the stored picture}',
  },
  { method: 'get', path: PATHS.avatarFile, summary: 'A stored avatar (<sha256>.webp): image/webp, cached a year, immutable', auth: 'none', gives: 'the picture (not enveloped)' },
];
