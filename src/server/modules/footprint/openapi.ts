import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { pageSchema } from '../../../shared/schemas/common';
import { footprintPageSchema, footprintRecordSchema, footprintSaveSchema } from '../../../shared/schemas/footprint';

// The carbon footprint's endpoints, for ENDPOINTS in src/server/openapi.ts (`...FOOTPRINT_ENDPOINTS`).
export const FOOTPRINT_ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: PATHS.userFootprint,
    operationId: 'userFootprintSave',
    tag: 'Footprint',
    summary: 'Save a carbon footprint: the questionnaire answers; the server computes the result (a client total_kg is ignored)',
    schema: footprintSaveSchema,
    auth: 'user',
    idempotent: true,
    answer: footprintRecordSchema,
    gives: 'FootprintRecord {id, answers, total_kg, total_tonnes, breakdown, sg_average_kg, ratio_to_sg_average, factors_version, created_at}',
  },
  {
    method: 'get',
    path: PATHS.userFootprint,
    operationId: 'userFootprintList',
    tag: 'Footprint',
    summary: 'Saved carbon footprints, newest first',
    schema: pageSchema,
    auth: 'user',
    answer: footprintPageSchema,
    gives: '{list: FootprintRecord[], total, page, page_size}',
  },
];
