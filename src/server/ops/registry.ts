import { CORE_COMMANDS, OpsError, auditJson, type Command, type OpsContext } from './commands';
import { parseCommandArgs, UsageError } from './args';
import { WALLET_COMMANDS } from './wallet-commands';
import { MARKET_COMMANDS } from './market-commands';
import { CONTENT_COMMANDS } from './content-commands';
import { RETIRE_COMMANDS } from './retire-commands';
import { REGISTRY_CANCEL_COMMANDS } from './registry-cancel-commands';
import { TOPUP_IMPORT_COMMANDS } from './topup-import-commands';
import { DB_COMMANDS } from './db-commands';
import { OFFSET_COMMANDS } from './offset-commands';
import { INVENTORY_COMMANDS } from './inventory-commands';
import { terminalText } from '../lib/terminal';

export const COMMANDS: Record<string, Command> = { ...CORE_COMMANDS, ...WALLET_COMMANDS, ...MARKET_COMMANDS, ...CONTENT_COMMANDS, ...RETIRE_COMMANDS, ...REGISTRY_CANCEL_COMMANDS, ...OFFSET_COMMANDS, ...INVENTORY_COMMANDS, ...TOPUP_IMPORT_COMMANDS, ...DB_COMMANDS };

type OpsOutcome = { ok: true; data: unknown; text: string } | { ok: false; exit: 1 | 2; error: string; data?: unknown };

/**
 * Runs one operator command and writes its operator_log row: who, when, the command and its arguments,
 * the outcome, and for a change its target row with the fields before and after (the audit). The CLI
 * runs every command through here; so do the tests. A refusal (OpsError, exit 1) or bad input (UsageError,
 * exit 2) is logged too; anything else is a bug and is thrown.
 */
export async function runOps(ctx: OpsContext, name: string, argv: readonly string[], actor: string): Promise<OpsOutcome> {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) return { ok: false, exit: 2, error: `unknown command "${name}"` };
  const log = (ok: boolean, result: unknown, audit?: { target: string; before: unknown; after: unknown }) =>
    ctx.db
      .insertInto('operator_log')
      .values({
        command: name,
        args: JSON.stringify(argv),
        actor,
        ok: ok ? 1 : 0,
        result: JSON.stringify(result ?? null).slice(0, 4000),
        created_at: ctx.clock.now(),
        ...(audit ? { target: audit.target, before: auditJson(audit.before), after: auditJson(audit.after) } : {}),
      })
      .execute();
  try {
    const result = await command.run({ actor, ...ctx }, parseCommandArgs(command, argv));
    await log(true, result.data, result.audit);
    // Printed to an operator's terminal: no escape sequence or control character from the data gets there.
    return { ok: true, data: result.data, text: terminalText(result.text) };
  } catch (err) {
    if (err instanceof UsageError || err instanceof OpsError) {
      await log(false, err.message);
      return { ok: false, exit: err instanceof UsageError ? 2 : 1, error: terminalText(err.message), data: (err as OpsError & { data?: unknown }).data };
    }
    throw err;
  }
}
