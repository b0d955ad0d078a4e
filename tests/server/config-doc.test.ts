import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC, CONFIG_SOURCE, configDoc, schemaEntries } from '../../src/server/config-doc';

// docs/configuration.md is generated from src/server/config.ts (`npm run docs:config`): the two cannot drift.
describe('docs/configuration.md', () => {
  const source = fs.readFileSync(CONFIG_SOURCE, 'utf8');

  it('is what npm run docs:config writes from config.ts', () => {
    expect(fs.readFileSync(CONFIG_DOC, 'utf8'), 'run `npm run docs:config` and commit docs/configuration.md').toBe(configDoc(source));
  });

  it('has one row per configuration key', () => {
    const doc = fs.readFileSync(CONFIG_DOC, 'utf8');
    const keys = schemaEntries(source).map((e) => e.key);
    expect(keys).toContain('PORT');
    expect(keys).toContain('LOG_LEVEL');
    for (const key of keys) expect(doc).toContain(`| \`${key}\` |`);
  });

  it('refuses a key without a description', () => {
    const added = source.replace('  PORT: int(8080, 0, 65535),', '  PORT: int(8080, 0, 65535),\n  NEW_KEY: int(1),');
    expect(() => configDoc(added)).toThrow(/NEW_KEY has no description/);
  });
});
