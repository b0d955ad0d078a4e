import { sql } from 'kysely';
import { ConfigError, loadConfig, type Config } from './config';
import { PortInUse, startServer } from './server';
import { DEMO_ACCOUNT } from './db/seed';
import { passkeyStartNote } from './modules/passkey/relying-party';
import type { DB } from './db/connection';
import { startPhases } from './lib/start-phases';

// First in the module's body: the imports above are evaluated by now.
const phases = startPhases();

/** True when this start made the database: its first migration ran after the process started. */
async function madeByThisStart(db: DB): Promise<boolean> {
  const started = Date.now() - performance.now();
  try {
    const { rows } = await sql<{ first: string | null }>`select min(timestamp) as first from kysely_migration`.execute(db);
    const first = rows[0]?.first ? Date.parse(rows[0].first) : NaN;
    return first >= started - 1000;
  } catch {
    return false;
  }
}

/** What an operator does after the first start on an empty database (docs/operations.md). */
function nextSteps(config: Config): string[] {
  return [
    'First start on an empty database: it is migrated' + (config.SEED_DEMO ? ' and seeded with demo data.' : '.'),
    'Next steps:',
    ...(config.SEED_DEMO ? ['  - a real deployment starts on a new database with SEED_DEMO=false (no demo accounts or projects)'] : []),
    '  - set PUBLIC_URL (the address people open), TRUST_PROXY behind a reverse proxy, SMTP_URL and SMTP_FROM,',
    '    COMPANY_NAME, COMPANY_UEN and COMPANY_ADDRESS, the legal entity (docs/configuration.md)',
    '  - projects, top-ups and users are run with the operator CLI: npm run ops -- help',
    '  - back-ups, upgrades, several instances, the reverse proxy and the service unit: docs/operations.md',
  ];
}

// Starts the server from the environment. Bad configuration: refuse to start and name the key.
async function main() {
  let config;
  try {
    config = loadConfig();
    phases.mark('config');
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const publicUrlSet = config.PUBLIC_URL !== undefined;
  let running;
  try {
    running = await startServer(config, { phases });
  } catch (err) {
    if (err instanceof PortInUse) {
      console.error(`${err.message}\nStop that process, or start on another port: PORT=${err.port + 1} npm start (PORT is in docs/configuration.md).`);
      process.exit(1);
    }
    throw err;
  }
  // The handlers come before anything else is awaited: the server listens already, and a SIGTERM in that
  // moment must drain, not end the process at once (Node's default).
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // SIGTERM (an orchestrator, a deploy): readiness fails first and the server keeps answering for
    // SHUTDOWN_DRAIN_MS, so the proxy moves traffic away before connections close. Ctrl-C closes at once.
    const drainMs = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_MS : 0;
    console.log(`${signal}: ${drainMs ? `draining for ${drainMs} ms, then ` : ''}shutting down`);
    running.drain();
    new Promise((resolve) => setTimeout(resolve, drainMs)).then(() => running.close()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  console.log(`\nCanopy is running at ${running.url}`);
  console.log(phases.line());
  if (!publicUrlSet) console.log(`Open it at this machine's addresses on port ${running.port}; behind a proxy or under a domain name, set PUBLIC_URL.`);
  const passkeys = passkeyStartNote(config);
  if (passkeys) console.log(passkeys);
  console.log(`Database: ${config.DATABASE_URL ? config.DATABASE_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@') : config.DB_FILE}`);
  if (config.SEED_DEMO) console.log(`Demo login: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password} (payment password ${DEMO_ACCOUNT.withdrawPassword})`);
  if (config.BENCH_SKIP_PAYMENT_PASSWORD) console.error('WARNING: BENCH_SKIP_PAYMENT_PASSWORD is on: orders skip the payment password. Benchmarks only.');
  console.log(`API document: ${running.url}/h5/api/openapi.json\n`);
  if (await madeByThisStart(running.deps.db)) console.log(nextSteps(config).join('\n') + '\n');

}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
