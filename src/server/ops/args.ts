// The operator CLI's one argument parser and the readers of its common flags. Every command declares the
// flags it takes; the parser splits what was typed into positionals and flags, and refuses a flag no
// command of that name takes (a typo would otherwise be ignored silently, e.g. `--dryrun` importing for real).

/** Bad input to a command: the CLI answers exit 2 with the command's usage line. */
export class UsageError extends Error {}

export interface Parsed {
  positionals: string[];
  flags: Record<string, string | true>;
}

export interface ArgSpec {
  /** Every `--name` the command takes (its usage line shows them); --json is every command's. */
  flags?: readonly string[];
  /** Those of `flags` that take no value (`--dry-run`): they never read the word after them. */
  switches?: readonly string[];
}

/**
 * Splits a command's arguments (everything after its name). `--name=value` always gives the value;
 * `--name value` gives the next word unless the flag is a switch or the next word is another `--flag`;
 * a valued flag with nothing after it reads as `true`, which its reader refuses. `--` ends the flags.
 * Words that do not start with `--` (including `-5`) are positionals, in order.
 */
export function parseCommandArgs(spec: ArgSpec | undefined, argv: readonly string[]): Parsed {
  const declared = new Set(['json', ...(spec?.flags ?? [])]);
  const switches = new Set(['json', ...(spec?.switches ?? [])]);
  const parsed: Parsed = { positionals: [], flags: {} };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith('--')) {
      parsed.positionals.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
    if (!declared.has(name)) throw new UsageError(`unknown flag --${name} (this command takes ${[...(spec?.flags ?? []), 'json'].map((f) => `--${f}`).join(', ')})`);
    if (eq >= 0) parsed.flags[name] = word.slice(eq + 1);
    else if (switches.has(name)) parsed.flags[name] = true;
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        parsed.flags[name] = next;
        i++;
      } else parsed.flags[name] = true;
    }
  }
  return parsed;
}

export function arg(args: Parsed, i: number, name: string): string {
  const value = args.positionals[i];
  if (value === undefined || value === '') throw new UsageError(`missing ${name}`);
  return value;
}

export function positiveInt(text: string, name: string): number {
  if (!/^\d{1,12}$/.test(text) || Number(text) < 1) throw new UsageError(`${name} must be a positive whole number, got "${text}"`);
  return Number(text);
}

/** A valued flag's text, or undefined when it is absent; given without a value, refused. */
export function textFlag(args: Parsed, name: string): string | undefined {
  const value = args.flags[name];
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

/** A flag that is a positive whole number (an ID), or undefined when absent. */
export function idFlag(args: Parsed, name: string): number | undefined {
  const text = textFlag(args, name);
  return text === undefined ? undefined : positiveInt(text, `--${name}`);
}

/** --limit N, or the command's default when absent. */
export function limitFlag(args: Parsed, fallback: number): number {
  return idFlag(args, 'limit') ?? fallback;
}

/** A flag that names one of `allowed` (--status, --format), or null when absent. */
export function choiceFlag<T extends string>(args: Parsed, name: string, allowed: readonly T[]): T | null {
  const value = args.flags[name];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** A switch: true when given (bare, or as `--name=true`). */
export function switchFlag(args: Parsed, name: string): boolean {
  const value = args.flags[name];
  if (value === undefined) return false;
  if (value !== true && value !== 'true') throw new UsageError(`--${name} takes no value`);
  return true;
}
