import { defineConfig } from '@lingui/cli';

// English is the source and default; Chinese (Simplified) is zh-Hans. On the wire lang is en / cn.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'zh-Hans'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src/app'],
      exclude: ['**/node_modules/**', '**/*.gen.ts'],
    },
  ],
  format: 'po',
  orderBy: 'messageId',
});
