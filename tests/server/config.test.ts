// Configuration from the environment, validated at start-up with the key named (src/server/config.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PUBLIC_HOLIDAYS, loadConfig } from '../../src/server/config';
import { CLI_TEST_TIMEOUT_MS, makeTmpDir, runTsx } from '../helpers/server';

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.HOST).toBe('0.0.0.0');
    expect(c.DATA_DIR).toBe('./data');
    expect(c.DB_FILE).toBe(path.resolve('./data', 'canopy.db'));
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.SEED_DEMO).toBe(true);
    expect(c.REGISTRATION_OPEN).toBe(true);
    expect(c.SESSION_TTL_DAYS).toBe(30);
    expect([c.ARGON2_MEMORY_KIB, c.ARGON2_TIME_COST, c.ARGON2_PARALLELISM]).toEqual([19_456, 2, 1]); // OWASP argon2id
    expect(c.TRUST_PROXY).toBe(0);
    expect(c.WITHDRAW_MIN_CENTS).toBeLessThanOrEqual(c.WITHDRAW_MAX_CENTS);
    expect(c.PRESALE_FEE_BP).toBe(1000);
    expect(c.PRESALE_PAY_HOURS).toBe(72);
    expect(c.SETTLEMENT_WORKING_DAYS).toBe(2);
    expect(c.PRESALE_SELL_MIN_GRADE).toBe(3);
    expect(c.PUBLIC_HOLIDAYS).toEqual(DEFAULT_PUBLIC_HOLIDAYS.split(','));
    expect(c.LOG_LEVEL).toBe('info');
  });

  it('reads values and treats an empty value as unset', () => {
    const c = loadConfig({ PORT: '9000', DATA_DIR: '/tmp/x', REGISTRATION_OPEN: 'off', SEED_DEMO: '0', SMTP_URL: 'smtp://mail:25', PUBLIC_HOLIDAYS: '2026-01-01, 2026-12-25', HOST: '' });
    expect(c).toMatchObject({ PORT: 9000, DATA_DIR: '/tmp/x', DB_FILE: '/tmp/x/canopy.db', REGISTRATION_OPEN: false, SEED_DEMO: false, SMTP_URL: 'smtp://mail:25', HOST: '0.0.0.0' });
    expect(c.PUBLIC_HOLIDAYS).toEqual(['2026-01-01', '2026-12-25']);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['SMTP_URL', 'foo'],
    ['SMTP_URL', 'http://mail.example'],
    ['SOCKET_HOST', 'http://x'],
    ['PUBLIC_HOLIDAYS', 'bad'],
    ['PUBLIC_HOLIDAYS', '2026-01-01,26-12-25'],
    ['REGISTRATION_OPEN', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['ARGON2_MEMORY_KIB', '10'],
    ['TRUST_PROXY', 'maybe'],
    ['PUBLIC_URL', 'ftp://x'],
    ['SESSION_TTL_DAYS', '0'],
    ['SETTLEMENT_WORKING_DAYS', '5'],
    ['GRADE_THRESHOLDS_CENTS', '5,4,3,2,1'],
    ['WITHDRAW_FEE_BP', '1.5'],
  ])('rejects %s=%s naming the key', (key, value) => {
    const message = problemsOf({ [key]: value });
    expect(message).toContain(key);
    expect(message).toContain('Invalid configuration');
  });

  it('rejects WITHDRAW_MIN_CENTS above WITHDRAW_MAX_CENTS', () => {
    const message = problemsOf({ WITHDRAW_MIN_CENTS: '10000', WITHDRAW_MAX_CENTS: '5000' });
    expect(message).toContain('WITHDRAW_MIN_CENTS');
    expect(message).toContain('WITHDRAW_MAX_CENTS');
    expect(() => loadConfig({ WITHDRAW_MIN_CENTS: '5000', WITHDRAW_MAX_CENTS: '5000' })).not.toThrow();
  });

  it('names every bad key at once', () => {
    const message = problemsOf({ PORT: 'abc', SMTP_URL: 'foo' });
    expect(message).toContain('PORT');
    expect(message).toContain('SMTP_URL');
  });
});

describe('main.ts start-up', () => {
  it('refuses to start with PORT=abc: exits non-zero and names PORT', async () => {
    const dir = makeTmpDir();
    const res = await runTsx('src/server/main.ts', { PORT: 'abc', DATA_DIR: dir, LOG_LEVEL: 'silent' });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('PORT');
    expect(res.stdout).not.toContain('is running');
  }, CLI_TEST_TIMEOUT_MS); // a cold start of main.ts through npx tsx: close to the default 30 s on a loaded machine
});
