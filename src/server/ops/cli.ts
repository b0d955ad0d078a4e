import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import { migrateToLatest } from '../db/migrate';
import { systemClock } from '../lib/clock';
import { COMMANDS, runOps } from './registry';
import { OpsError } from './commands';
import { parseCommandArgs, UsageError, type Parsed } from './args';
import os from 'node:os';
import { terminalJson, terminalText } from '../lib/terminal';

// `npm run ops -- <command> [args] [--json]`. Exit 0 done, 1 refused, 2 bad input. Honours DATA_DIR.

function help(): string {
  const lines = Object.entries(COMMANDS).map(([, c]) => `  ${c.usage.padEnd(52)} ${c.summary}`);
  return `Canopy operator CLI\nusage: npm run ops -- <command> [args] [--json]\n\n${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  let args: Parsed | undefined;
  let badArgs: UsageError | undefined;
  try {
    args = parseCommandArgs(command, rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    badArgs = err;
  }
  const asJson = args ? args.flags.json === true : rest.includes('--json');
  const out = (obj: unknown, text: string) => console.log(asJson ? terminalJson(obj) : text);
  const fail = (code: number, message: string, data?: unknown) => {
    if (asJson) console.log(terminalJson({ ok: false, error: message, ...(data ? { data } : {}) }));
    // A refusal may quote what was typed or stored (a command name, a user's text): printed as terminal text.
    console.error(terminalText(message));
    return code;
  };
  if (!name || name === 'help' || name === '--help') {
    console.log(help());
    return name ? 0 : 2;
  }
  if (!command) return fail(2, `unknown command "${name}"\n\n${help()}`);
  if (!args) return fail(2, `${badArgs?.message}\nusage: npm run ops -- ${command.usage}`);

  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) return fail(2, err.message);
    throw err;
  }
  if (command.beforeOpen) {
    try {
      await command.beforeOpen(config, args);
    } catch (err) {
      if (err instanceof UsageError) return fail(2, `${err.message}\nusage: npm run ops -- ${command.usage}`);
      if (err instanceof OpsError) return fail(1, err.message);
      throw err;
    }
  }
  const { db } = openDatabase(config.DB_TARGET, { poolSize: 2, connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS });
  try {
    await migrateToLatest(db);
    const outcome = await runOps({ db, clock: systemClock, dataDir: config.DATA_DIR }, name, rest, process.env.OPERATOR ?? os.userInfo().username);
    if (outcome.ok) {
      out({ ok: true, data: outcome.data }, outcome.text);
      return 0;
    }
    return fail(outcome.exit, outcome.exit === 2 ? `${outcome.error}\nusage: npm run ops -- ${command.usage}` : outcome.error, outcome.data);
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
