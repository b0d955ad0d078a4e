import { parseArgs } from 'node:util';
import { CORE_COMMANDS, type Command, type Parsed } from './commands';
import { WALLET_COMMANDS } from './wallet-commands';
import { MARKET_COMMANDS } from './market-commands';

export const COMMANDS: Record<string, Command> = { ...CORE_COMMANDS, ...WALLET_COMMANDS, ...MARKET_COMMANDS };

/**
 * A command's arguments (everything after its name) split by node:util parseArgs: the command's declared
 * flags are string options (`--limit 5` or `--limit=5`), --json is a switch. Not strict, as the CLI always
 * was: an undeclared `--name=value` or `--name` is kept, and a declared flag given without a value reads as
 * `true`, which the command refuses or ignores as before.
 */
export function parseCommandArgs(command: Pick<Command, 'flags'> | undefined, argv: readonly string[]): Parsed {
  const options: Record<string, { type: 'string' | 'boolean' }> = { json: { type: 'boolean' } };
  for (const flag of command?.flags ?? []) options[flag] = { type: 'string' };
  const { values, positionals } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true });
  const flags: Parsed['flags'] = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === true) flags[name] = true;
    else if (typeof value === 'string') flags[name] = value;
  }
  return { positionals, flags };
}
