import fs from 'node:fs';
import path from 'node:path';
import { writeTx } from '../db/tx';
import { checkLedger, walletOf } from '../ledger/ledger';
import { formatSgd } from '../../shared/money';
import { WalletStateError } from '../modules/wallet/checks';
import { parseStatement, STATEMENT_FORMATS, StatementError, type StatementFormat } from '../modules/wallet/statements';
import { assignLine, importStatement, type ImportSummary } from '../modules/wallet/statements/reconcile';
import { OpsError, type Command, type OpsContext } from './commands';
import { arg, choiceFlag, limitFlag, positiveInt, switchFlag, UsageError } from './args';
import { terminalValue } from '../lib/terminal';

// Bank statement reconciliation (docs/product.md#top-ups): import a statement, list the lines no reference
// matched, and credit one of those to a user by hand. Every line is handled in its own transaction and
// credited at most once, ever (statement_lines.identity is unique); see
// modules/wallet/statements/reconcile.ts.

function actorOf(ctx: OpsContext): string {
  return ctx.actor ?? 'ops';
}

function summaryText(file: string, s: ImportSummary, dryRun: boolean): string {
  const head = `${dryRun ? 'DRY RUN (nothing written): ' : ''}${path.basename(file)} (${s.format}): ${s.lines} credit line${s.lines === 1 ? '' : 's'}, ${s.debits_skipped} debit${s.debits_skipped === 1 ? '' : 's'} skipped`;
  const counts = `matched ${s.matched}, flagged ${s.flagged}, unmatched ${s.unmatched}, already seen ${s.already_seen}; credited ${formatSgd(s.credited_cents)}, total new ${formatSgd(s.total_cents)}`;
  const detail = s.results
    .filter((r) => r.outcome !== 'seen')
    .map((r) => `  line #${r.line_id ?? '-'} ${r.booked_on} ${formatSgd(r.amount).padStart(12)} ${r.outcome}${r.flag ? ` (${r.flag})` : ''}${r.topup_id ? ` -> top-up #${r.topup_id} user #${r.user_id}` : ''}`);
  const nothing = s.already_seen === s.lines && s.lines > 0 ? ['every line was imported before: nothing changed'] : [];
  return [head, counts, ...detail, ...nothing].join('\n');
}

export const TOPUP_IMPORT_COMMANDS: Record<string, Command> = {
  'topup:import': {
    usage: `topup:import FILE [--format ${STATEMENT_FORMATS.join('|')}] [--dry-run]`,
    flags: ['format', 'dry-run'],
    switches: ['dry-run'],
    summary: 'Reconcile a bank statement: credit the top-ups its lines pay (each line once, ever)',
    async run(ctx, args) {
      const dryRun = switchFlag(args, 'dry-run');
      const file = arg(args, 0, 'FILE');
      const format = choiceFlag<StatementFormat>(args, 'format', STATEMENT_FORMATS) ?? undefined;
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        throw new UsageError(`cannot read file ${file}`);
      }
      let statement;
      try {
        statement = parseStatement(text, format);
      } catch (err) {
        if (err instanceof StatementError) throw new OpsError(`${path.basename(file)}: ${err.message}; nothing was imported`);
        // A fault of the reader, not of the file: the operator is told so in words, the stack goes to stderr
        // for the report.
        console.error(err);
        throw new OpsError(`${path.basename(file)}: the statement reader failed on this file (a fault in Canopy, not in the file: report it with the file); nothing was imported`);
      }
      let summary: ImportSummary;
      try {
        summary = await importStatement(ctx.db, statement, { now: () => ctx.clock.now(), actor: actorOf(ctx), source: JSON.stringify([path.basename(file)]), dryRun });
      } catch (err) {
        if (err instanceof WalletStateError) throw new OpsError(err.message);
        throw err;
      }
      if (!dryRun) {
        const check = await checkLedger(ctx.db);
        if (!check.ok) throw new OpsError(`ledger check failed after the import: ${JSON.stringify(check.problems).slice(0, 500)}`);
      }
      const { results, ...counts } = summary;
      return {
        data: { file: path.basename(file), dry_run: dryRun, ...counts, results },
        text: summaryText(file, summary, dryRun),
      };
    },
  },
  'topup:unmatched': {
    usage: 'topup:unmatched [--limit N]',
    flags: ['limit'],
    summary: 'Bank statement lines no top-up reference matched, oldest first (for topup:assign)',
    async run({ db }, args) {
      const limit = limitFlag(args, 100);
      const rows = await db.selectFrom('statement_lines').selectAll().where('status', '=', 'unmatched').orderBy('id').limit(limit).execute();
      const text = rows.length ? rows.map((r) => `line #${r.id} ${r.booked_on} ${formatSgd(r.amount).padStart(12)} ${r.format.padEnd(7)} ${terminalValue(r.description)}`).join('\n') : 'no unmatched lines';
      return { data: rows, text };
    },
  },
  'topup:assign': {
    usage: 'topup:assign LINE USER',
    summary: 'Credit an unmatched statement line to a user (id or email) as a top-up',
    async run(ctx, args) {
      const lineId = positiveInt(arg(args, 0, 'LINE'), 'LINE');
      const who = arg(args, 1, 'USER');
      const { db, clock } = ctx;
      const user = /^\d+$/.test(who)
        ? await db.selectFrom('users').select(['id', 'email']).where('id', '=', Number(who)).executeTakeFirst()
        : await db.selectFrom('users').select(['id', 'email']).where('email', '=', who.trim().toLowerCase()).executeTakeFirst();
      if (!user) throw new OpsError(`no user ${who}; nothing changed`);
      const before = await db.selectFrom('statement_lines').selectAll().where('id', '=', lineId).executeTakeFirst();
      let done;
      try {
        done = await writeTx(db, (_tx, w) => assignLine(w, lineId, user.id, clock.now(), actorOf(ctx)));
      } catch (err) {
        if (err instanceof WalletStateError) throw new OpsError(err.message);
        throw err;
      }
      const wallet = await walletOf(db, user.id);
      return {
        data: { line: done.line, topup: done.topup, email: user.email, wallet },
        text: `line #${lineId} credited: ${formatSgd(done.line.amount)} to ${user.email} as top-up #${done.topup.id} (available now ${formatSgd(wallet.available)})`,
        audit: { target: `statement_line:${lineId}`, before: before ?? null, after: done.line },
      };
    },
  },
};
