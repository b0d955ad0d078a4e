// The operator CLI's argument splitting (node:util parseArgs in src/server/ops/registry.ts): the documented
// forms of every command read as the hand-written parser read them, and every `--flag` a usage line shows
// is declared by its command.
import { describe, expect, it } from 'vitest';
import { COMMANDS, parseCommandArgs } from '../../src/server/ops/registry';

describe('ops CLI arguments', () => {
  it('splits positionals, --flag VALUE, --flag=VALUE and the --json switch', () => {
    expect(parseCommandArgs(COMMANDS['user:risk'], ['mei@example.sg', 'on', '--json'])).toEqual({ positionals: ['mei@example.sg', 'on'], flags: { json: true } });
    expect(parseCommandArgs(COMMANDS['presale:allocate'], ['7', '--price', '1300', '--json'])).toEqual({ positionals: ['7'], flags: { price: '1300', json: true } });
    expect(parseCommandArgs(COMMANDS['order:list'], ['--project=3', '--status', 'completed', '--limit', '5'])).toEqual({
      positionals: [],
      flags: { project: '3', status: 'completed', limit: '5' },
    });
    expect(parseCommandArgs(COMMANDS['topup:reject'], ['12', '--reason', 'no matching transfer'])).toEqual({ positionals: ['12'], flags: { reason: 'no matching transfer' } });
    expect(parseCommandArgs(COMMANDS['throttle:list'], ['--key', '203.0.113.7', '--json'])).toEqual({ positionals: [], flags: { key: '203.0.113.7', json: true } });
  });

  it('keeps the old reading of the edge cases: a flag without a value is true, --json never takes one', () => {
    expect(parseCommandArgs(COMMANDS['topup:reject'], ['12', '--reason'])).toEqual({ positionals: ['12'], flags: { reason: true } });
    expect(parseCommandArgs(COMMANDS['ledger:check'], ['--json', 'extra'])).toEqual({ positionals: ['extra'], flags: { json: true } });
    expect(parseCommandArgs(COMMANDS['outbox'], ['--json=no'])).toEqual({ positionals: [], flags: { json: 'no' } });
    expect(parseCommandArgs(undefined, ['a', '--json'])).toEqual({ positionals: ['a'], flags: { json: true } });
  });

  it('every --flag of a usage line is a declared string option of its command', () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const shown = [...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]);
      expect([...(command.flags ?? [])].sort(), name).toEqual([...new Set(shown)].sort());
    }
  });
});
