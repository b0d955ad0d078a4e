import type { Endpoint } from '../../lib/openapi-endpoint';
import { PATHS } from '../../../shared/api';
import { bannerPageSchema, contentPageSchema, faqPageSchema, pageQuery } from '../../../shared/schemas/content';

// The content endpoints (routes.ts), for ENDPOINTS in src/server/openapi.ts.
export const CONTENT_ENDPOINTS: Endpoint[] = [
  { method: 'get', path: PATHS.faqLists, operationId: 'contentFaq', tag: 'Content', summary: 'Frequently asked questions', auth: 'none', answer: faqPageSchema, gives: '{list}' },
  { method: 'get', path: PATHS.page, operationId: 'contentPage', tag: 'Content', summary: 'About, protocol or privacy page', schema: pageQuery, auth: 'none', answer: contentPageSchema, errors: ['not_found'], gives: 'ContentPage' },
  { method: 'get', path: PATHS.banners, operationId: 'contentBanners', tag: 'Content', summary: 'Home banners', auth: 'none', answer: bannerPageSchema, gives: '{list}' },
];
