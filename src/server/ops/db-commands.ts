import { BackupError, backupSqlite, inspectBackup, restoreSqlite } from '../db/backup';
import { OpsError, type Command } from './commands';
import { UsageError } from './args';

// Back-up and restore of the embedded database (docs/operations.md "Back up and restore"). db:restore
// replaces the database file, so the CLI runs its `beforeOpen` before it opens the database; `run` then
// only reports (and the restore is logged in the restored database's audit).

function fileArg(positionals: string[]): string {
  const file = positionals[0];
  if (!file) throw new UsageError('missing FILE');
  return file;
}

async function asOps<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof BackupError) throw new OpsError(err.message);
    throw err;
  }
}

export const DB_COMMANDS: Record<string, Command> = {
  'db:backup': {
    usage: 'db:backup FILE',
    summary: 'A consistent copy of the embedded SQLite database while the server runs (VACUUM INTO), checked after; on PostgreSQL use pg_dump',
    async run({ db }, args) {
      const info = await asOps(() => backupSqlite(db, fileArg(args.positionals)));
      return { data: info, text: `backup written: ${info.file} (${info.bytes} bytes, migration ${info.migration})` };
    },
  },
  'db:restore': {
    usage: 'db:restore FILE',
    summary: 'Replace the embedded database with a backup (server stopped); an older backup is migrated forward',
    async beforeOpen(target, args) {
      if (target.DATABASE_URL) throw new OpsError('db:restore is for the embedded SQLite database; on PostgreSQL use pg_restore (docs/operations.md)');
      await asOps(() => restoreSqlite(fileArg(args.positionals), target.DB_FILE));
    },
    async run(_ctx, args) {
      const info = await asOps(() => inspectBackup(fileArg(args.positionals)));
      return { data: info, text: `restored from ${info.file} (migration ${info.migration}); start the server again`, audit: { target: 'database', before: null, after: { restored_from: info.file, migration: info.migration } } };
    },
  },
};
