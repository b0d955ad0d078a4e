import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { avatarAnswerSchema } from '../../../shared/schemas/user';

// The avatar's endpoints, for ENDPOINTS in src/server/openapi.ts (`...AVATAR_ENDPOINTS`).
export const AVATAR_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.userAvatar,
    operationId: 'userAvatar',
    tag: 'Account',
    summary:
      'Upload an avatar: the picture as the raw body (JPEG, PNG or WebP by its bytes; at most 5 MiB and 40 megapixels), lang in the query. Re-encoded to 512x512 WebP without metadata',
    auth: 'user',
    idempotent: true,
    upload: ['image/jpeg', 'image/png', 'image/webp'],
    answer: avatarAnswerSchema,
    errors: ['avatar_too_large', 'avatar_not_image', 'avatar_too_many_pixels', 'avatar_unreadable', 'too_many_requests'],
    gives: '{avatar: the URL path of the stored picture}',
  },
  {
    method: 'get',
    path: PATHS.avatarFile,
    operationId: 'avatarFile',
    tag: 'Account',
    summary: 'A stored avatar (<sha256>.webp): image/webp, cached a year, immutable',
    auth: 'none',
    bare: ['image/webp'],
    gives: 'the picture (not enveloped)',
  },
];
