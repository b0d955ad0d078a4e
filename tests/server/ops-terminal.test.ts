// Text from outside the company reaches the operator's terminal through the ops commands: a bank statement's
// description (topup:unmatched) must not clear the screen ("\u001b[2J"), move the cursor, or rewrite the
// line with a carriage return. Escape sequences and control characters are removed when printed
// (lib/terminal.ts); letters of every script stay; the command's data keeps the text as the bank sent it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../../src/server/ops/registry';
import { terminalJson, terminalText, terminalValue } from '../../src/server/lib/terminal';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const HOSTILE = 'FAST PAYMENT\u001b[2J\u001b[H OTHR TAN 陈伟明 José\r*** ALL LINES MATCHED ***\u001b]0;pwned\u0007\u009b31m\u202eevil';

describe('ops output on a terminal', () => {
  it('topup:unmatched prints a bank description without its escape sequences and control characters', async () => {
    const now = s.clock.now();
    await s.db
      .insertInto('statement_lines')
      .values({ identity: `test-${now}`, format: 'dbs-csv', booked_on: '2026-11-23', description: HOSTILE, amount: 4200, balance: null, bank_ref: '', status: 'unmatched', topup_id: null, user_id: null, note: '', created_at: now, decided_at: null })
      .execute();
    const out = await runOps({ db: s.db, clock: s.clock, dataDir: s.dataDir }, 'topup:unmatched', [], 'test');
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.text).not.toMatch(/[^\P{Cc}\n]|[\u202a-\u202e\u2066-\u2069]/u); // no control character but the newline
    expect(out.text).not.toContain('\r');
    expect(out.text).not.toContain('[2J');
    expect(out.text).not.toContain('pwned');
    expect(out.text).toContain('FAST PAYMENT OTHR TAN 陈伟明 José *** ALL LINES MATCHED ***evil');
    expect(out.text.split('\n')).toHaveLength(1); // one line, as the command wrote it
    // The data (--json) keeps the description as the bank sent it; JSON escapes it there.
    expect(JSON.stringify(out.data)).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    // --json prints it escaped: not one control character reaches the terminal, and it parses back the same.
    const printed = terminalJson({ ok: true, data: out.data });
    expect(printed).not.toMatch(/[^\P{Cc}\n]|[\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
    expect(printed).toContain('\\u001b[2J');
    expect(printed).toContain('\\u009b31m');
    expect(printed).toContain('\\u202eevil');
    expect(JSON.parse(printed)).toEqual({ ok: true, data: out.data });
  });

  it('the helpers: the whole output keeps its own newlines and tabs, a value becomes one line', () => {
    expect(terminalText('a\u001b[31mb\u001b[0m\r\nc\td\u0007')).toBe('ab\nc\td');
    expect(terminalValue('a\nb\r\nc\u2028d\u001b[Ke')).toBe('a b c de');
    expect(terminalValue('Ünïcödé 中文 עברית 🙂')).toBe('Ünïcödé 中文 עברית 🙂');
  });
});
