// Preloaded into a bench server (`node --import <this file>`, see bench/roundtrips.ts): counts every
// PostgreSQL round trip (pg Client.query call) the process makes, and those made inside a write transaction
// (between a BEGIN and its COMMIT or ROLLBACK on the same connection), and writes the counts as JSON to
// $ROUNDTRIPS_FILE when the process exits. pg is resolved from the server's own checkout (its cwd).
// In pipeline mode a statement sent while another is still unanswered on the same connection costs no wait
// of its own: `waits` counts only the statements sent with nothing in flight (the round trips waited for).
import fs from 'node:fs';
import { createRequire } from 'node:module';

const pg = createRequire(`${process.cwd()}/`)('pg');
const counts = { total: 0, in_tx: 0, waits: 0, waits_in_tx: 0, begins: 0, by_statement: {} };
const inFlight = new WeakMap();
const inTx = new WeakSet();
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  const text = (typeof config === 'string' ? config : config?.text ?? '').trimStart().toLowerCase();
  counts.total++;
  if (text.startsWith('begin')) {
    counts.begins++;
    inTx.add(this);
  }
  if (inTx.has(this)) counts.in_tx++;
  const flying = inFlight.get(this) ?? 0;
  if (flying === 0) {
    counts.waits++;
    if (inTx.has(this)) counts.waits_in_tx++;
  }
  const head = text.replace(/\s+/g, ' ').slice(0, 70);
  counts.by_statement[head] = (counts.by_statement[head] ?? 0) + 1;
  // A transaction ends with COMMIT or ROLLBACK, alone or after other statements of one simple query ('select 1; commit').
  if (/(^|;\s*)(commit|rollback)\s*(;|$)/.test(text)) inTx.delete(this);
  const result = original.call(this, config, ...rest);
  if (result && typeof result.then === 'function') {
    inFlight.set(this, flying + 1);
    const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
    result.then(done, done);
  }
  return result;
};
process.on('exit', () => {
  if (process.env.ROUNDTRIPS_FILE) fs.writeFileSync(process.env.ROUNDTRIPS_FILE, JSON.stringify(counts));
});
