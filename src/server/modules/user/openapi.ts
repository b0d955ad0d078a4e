import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { membershipSchema } from '../../../shared/schemas/user';

// The user module's own entries, for ENDPOINTS in src/server/openapi.ts (`...USER_ENDPOINTS`).
export const USER_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: PATHS.userMembership,
    summary: 'Membership: the grade ladder from configuration, completed purchases and the next grade',
    auth: 'user',
    gives: 'Membership',
    operationId: 'userMembership',
    tag: 'Account',
    answer: membershipSchema,
    errors: [],
  },
];
