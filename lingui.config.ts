import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// English is the source and default; Chinese (Simplified) is zh-Hans. On the wire lang is en / cn.
// Two catalogs: `core` holds the texts of what the home screen draws (UI kit, home, project cards) and is
// loaded before the first render; `messages` holds every other screen's texts and loads right after, so
// the home route does not carry the whole app's words (the 160 KiB JS budget).
// The form kit (components/forms: fields, password input, confirm sheet...) is never drawn on home, so it
// stays out of `core`.
const CORE = [
  '<rootDir>/src/app/components',
  '<rootDir>/src/app/features/home',
  '<rootDir>/src/app/lib/project-labels.ts',
  '<rootDir>/src/app/routes/__root.tsx',
];
const NOT_CORE = ['<rootDir>/src/app/components/forms/**'];
// What `messages` leaves to `core`: CORE less the form kit. An excluded folder is excluded whole, so the
// kit's own folder is not among these (else its texts would be in neither catalog).
const CORE_ONLY = [
  '<rootDir>/src/app/components/*.{ts,tsx}',
  '<rootDir>/src/app/features/home',
  '<rootDir>/src/app/lib/project-labels.ts',
  '<rootDir>/src/app/routes/__root.tsx',
];

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'zh-Hans'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/core',
      include: CORE,
      exclude: ['**/node_modules/**', '**/*.gen.ts', ...NOT_CORE],
    },
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src/app'],
      exclude: ['**/node_modules/**', '**/*.gen.ts', ...CORE_ONLY],
    },
  ],
  format: formatter(),
  orderBy: 'messageId',
});
