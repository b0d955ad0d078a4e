// The operator CLI's one argument parser (src/server/ops/args.ts): the documented forms of every command,
// switches before or after other flags, unknown flags refused, --limit and --status read one way, and
// every `--flag` a usage line shows is declared by its command.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/server/ops/registry';
import { choiceFlag, limitFlag, parseCommandArgs, UsageError } from '../../src/server/ops/args';

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

  it('reads a switch followed by another flag: topup:import FILE --dry-run --json', () => {
    expect(parseCommandArgs(COMMANDS['topup:import'], ['statement.csv', '--dry-run', '--json'])).toEqual({ positionals: ['statement.csv'], flags: { 'dry-run': true, json: true } });
    expect(parseCommandArgs(COMMANDS['topup:import'], ['--dry-run', 'statement.csv', '--format', 'dbs-csv'])).toEqual({ positionals: ['statement.csv'], flags: { 'dry-run': true, format: 'dbs-csv' } });
  });

  it('refuses a flag the command does not take, naming it and the ones it takes', () => {
    expect(() => parseCommandArgs(COMMANDS['topup:import'], ['statement.csv', '--dryrun'])).toThrow(UsageError);
    expect(() => parseCommandArgs(COMMANDS['topup:import'], ['statement.csv', '--dryrun'])).toThrow('unknown flag --dryrun (this command takes --format, --dry-run, --json)');
    expect(() => parseCommandArgs(COMMANDS['ledger:check'], ['--limit=5'])).toThrow('unknown flag --limit');
  });

  it('reads --limit and --status one way in every command', () => {
    const limit = (name: string, argv: string[]) => limitFlag(parseCommandArgs(COMMANDS[name], argv), 50);
    expect(limit('order:list', [])).toBe(50);
    expect(limit('order:list', ['--limit', '5'])).toBe(5);
    expect(limit('topup:unmatched', ['--limit=7'])).toBe(7);
    expect(() => limit('order:list', ['--limit'])).toThrow('--limit needs a value');
    expect(() => limit('order:list', ['--limit', '0'])).toThrow('--limit must be a positive whole number, got "0"');
    const status = (argv: string[]) => choiceFlag(parseCommandArgs(COMMANDS['topup:list'], argv), 'status', ['pending', 'credited'] as const);
    expect(status([])).toBeNull();
    expect(status(['--status', 'credited'])).toBe('credited');
    expect(() => status(['--status', 'lost'])).toThrow('--status must be one of pending, credited');
    expect(() => status(['--status'])).toThrow('--status must be one of pending, credited');
  });

  it('keeps the old reading of the edge cases: a flag without a value is true, --json never takes one', () => {
    expect(parseCommandArgs(COMMANDS['topup:reject'], ['12', '--reason'])).toEqual({ positionals: ['12'], flags: { reason: true } });
    expect(parseCommandArgs(COMMANDS['ledger:check'], ['--json', 'extra'])).toEqual({ positionals: ['extra'], flags: { json: true } });
    expect(parseCommandArgs(COMMANDS['outbox'], ['--json=no'])).toEqual({ positionals: [], flags: { json: 'no' } });
    expect(parseCommandArgs(undefined, ['a', '--json'])).toEqual({ positionals: ['a'], flags: { json: true } });
  });

  it('every --flag of a usage line is a declared string option of its command', () => {
    // --json is every command's switch; a usage line may name it where the output is meant for scripts.
    for (const [name, command] of Object.entries(COMMANDS)) {
      const shown = [...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]).filter((f) => f !== 'json');
      expect([...(command.flags ?? [])].sort(), name).toEqual([...new Set(shown)].sort());
    }
  });
});
