import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FUND_ACCOUNTS,
  FUND_LOG_KINDS,
  accountLabel,
  accountNameLabel,
  fundLogKindChip,
  fundLogKindLabel,
  kindLabel,
  topupStatusLabel,
  unknownKindLabel,
  withdrawalStatusLabel,
} from '../../src/app/features/wallet/labels';
import { TOPUP_STATUSES, WALLET_FUND_LOG_KINDS, WITHDRAWAL_STATUSES } from '../../src/shared/schemas/wallet';

// Fund log kinds, account names and statuses are translated on the fund logs and records screens. Every
// kind the server writes must have its own label (an unknown one falls back to a generic "Balance change").

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The kinds of ledger entries in the server's code: `kind: '...'` of a post()/postMoney() entry. Order kinds
 *  (purchase / presale / sell, the orders table's own column) the carbon-tax evidence pack's row kinds
 *  (purchase / retirement), an approval request's kinds (retire / withdraw), a registry reconciliation's
 *  difference kinds (modules/retire/reconcile.ts) and the sandbox's play-money entries, which no member's fund
 *  logs show (their ledger owner is the sandbox's, docs/decisions/0043-integrators-api.md), are not fund log
 *  kinds. */
function serverFundLogKinds(): Set<string> {
  const ORDER_KINDS = new Set([
    'purchase',
    'presale',
    'sell',
    'retirement',
    'retire',
    'withdraw',
    'unreadable',
    'cancellation_not_recorded',
    'not_held',
    'reference_differs',
    'not_cancelled',
    'not_counted',
    'sandbox_funding',
    'sandbox_buy',
    'sandbox_retire',
  ]);
  const kinds = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'src/server'))) {
    const text = fs.readFileSync(file, 'utf8');
    // Lines about metrics label their series by `kind` too (socket message kinds, order kinds): not fund logs.
    const lines = text.split('\n').filter((l) => !/metrics/i.test(l)).join('\n');
    for (const m of lines.matchAll(/\bkind:\s*'([a-z_]+)'/g)) if (!ORDER_KINDS.has(m[1]!)) kinds.add(m[1]!);
  }
  return kinds;
}

describe('fund log kind labels', () => {
  it('cover every kind the server writes', () => {
    const server = serverFundLogKinds();
    expect(server.size).toBeGreaterThanOrEqual(WALLET_FUND_LOG_KINDS.length);
    const missing = [...server].filter((k) => !(FUND_LOG_KINDS as readonly string[]).includes(k));
    expect(missing, `kinds without a label: add them to FUND_LOG_KINDS in features/wallet/labels.ts`).toEqual([]);
  });

  it('cover the wallet kinds of the shared schema', () => {
    for (const kind of WALLET_FUND_LOG_KINDS) expect(FUND_LOG_KINDS).toContain(kind);
  });

  it('are distinct, with a chip each', () => {
    const ids = FUND_LOG_KINDS.map((k) => fundLogKindLabel[k].id);
    expect(new Set(ids).size).toBe(ids.length);
    const chips = FUND_LOG_KINDS.map((k) => fundLogKindChip[k].id);
    expect(new Set(chips).size).toBe(chips.length);
    for (const k of FUND_LOG_KINDS) expect(kindLabel(k)).toBe(fundLogKindLabel[k]);
  });

  it('map an unknown kind to a generic label', () => {
    expect(kindLabel('something_new')).toBe(unknownKindLabel);
    expect(kindLabel('')).toBe(unknownKindLabel);
    expect(FUND_LOG_KINDS).not.toContain('something_new');
  });
});

describe('account and status labels', () => {
  it('name every balance account (credits are tons, the rest money)', () => {
    expect([...FUND_ACCOUNTS].sort()).toEqual(['available', 'credits', 'frozen', 'presale', 'unavailable']);
    for (const a of FUND_ACCOUNTS) expect(accountNameLabel(a)).toBe(accountLabel[a]);
    expect(accountNameLabel('bank').id).not.toBe(accountLabel.available.id);
  });

  it('cover every top-up and withdrawal status on the wire', () => {
    expect(Object.keys(topupStatusLabel).sort()).toEqual([...TOPUP_STATUSES].sort());
    expect(Object.keys(withdrawalStatusLabel).sort()).toEqual([...WITHDRAWAL_STATUSES].sort());
  });
});
