import cluster from 'node:cluster';
import os from 'node:os';

// `npm run start:cluster`: several API instances on one port (node:cluster hands connections to the
// workers in turn). They share everything through PostgreSQL: sessions, throttles, idempotency keys, the
// scheduler's due work (each transition is a conditional update in a write transaction, so it happens
// once whichever worker runs it) and socket events (LISTEN/NOTIFY). SQLite is one writer per file: without
// DATABASE_URL this starts a single worker. CLUSTER_WORKERS sets how many (default: one per CPU).

const requested = Number(process.env.CLUSTER_WORKERS ?? os.availableParallelism());
const workers = process.env.DATABASE_URL ? Math.max(1, Math.min(64, Number.isInteger(requested) ? requested : 1)) : 1;

if (cluster.isPrimary) {
  if (!process.env.DATABASE_URL) console.log('start:cluster: no DATABASE_URL, so one instance (SQLite has one writer per file)');
  console.log(`start:cluster: ${workers} instance(s)`);
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`instance ${worker.process.pid} ended (${signal ?? code}); starting another`);
    setTimeout(() => cluster.fork(), 1000);
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
} else {
  await import('./main');
}
