import { post, type ApiResult } from '../../lib/api';
import { PATHS } from '../../../shared/api';
import type { FootprintAnswers, FootprintRecord } from '../../../shared/schemas/footprint';

/** POST /api/user/footprint: the answers and the total shown offline (the server recomputes it). */
export function postFootprint(answers: FootprintAnswers, totalKg: number, key: string): Promise<ApiResult<FootprintRecord>> {
  return post<FootprintRecord>(PATHS.userFootprint, { ...answers, total_kg: totalKg }, { idempotencyKey: key, quiet: true });
}
