// The set-up of the oversell races (market-oversell, registry-held-race): a server that lets every buy through
// to the order engine, and buyers in four client processes firing all their requests at once.
import { spawn } from 'node:child_process';
import { API_BASE, PATHS } from '../../src/shared/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, newKey, TRADE_PASSWORD, type MarketUser } from './market-helpers';

/** The oversell guarantee, not the hash lanes' wait bound (hashing.test.ts): on a busy machine 500 queued checks
 *  may take longer than the default 3 s to drain. The lane refuses a check whose expected wait, queue / lane
 *  width x the recent time of one check, passes HASH_MAX_WAIT_MS (at most 60 s); under load (~10 on 2 cores)
 *  a check's time there includes the event loop's delay, and a 2-wide lane of 500 gave four to thirty 429s.
 *  A 64-wide lane keeps the estimate far below the bound, and lets more buys race for the last tons. */
export const startRaceServer = (): Promise<TestServer> => startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000', HASH_CONCURRENCY_USER: '64' });

// Each client process fires all its requests at once and prints [{status, code}] as JSON.
const CLIENT = `
const jobs = JSON.parse(process.env.JOBS);
Promise.all(jobs.map(async (j) => {
  try {
    const res = await fetch(process.env.URL, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: j.token, 'Idempotency-Key': j.key }, body: JSON.stringify(j.body) });
    const text = await res.text();
    let code = null;
    try { code = JSON.parse(text).code; } catch {}
    return { status: res.status, code };
  } catch (err) { return { status: 0, code: null, error: String(err) }; }
})).then((out) => process.stdout.write(JSON.stringify(out)));
`;

interface Answer {
  status: number;
  code: number | null;
}

function runClient(url: string, jobs: unknown[]): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT], { env: { ...process.env, URL: url, JOBS: JSON.stringify(jobs) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Answer[]) : reject(new Error(`client exited ${code}: ${err}`))));
  });
}

/** `buys` buys of 1 t of a project at once, by `buyers` users with 1,000.00 each, from four client processes:
 *  the buyers, every answer, and how many answers carry each code. */
export async function raceBuys(s: TestServer, projectId: number, opts: { buyers: number; buys: number }): Promise<{ users: MarketUser[]; results: Answer[]; byCode: Map<number | null, number> }> {
  const users = await Promise.all(Array.from({ length: opts.buyers }, () => makeUser(s, { cents: 100_000, scryptLog2n: 10 })));
  const jobs = Array.from({ length: opts.buys }, (_, i) => ({ token: users[i % users.length]!.token, key: newKey(), body: { project_id: projectId, tons: 1, password: TRADE_PASSWORD } }));
  const url = s.url + API_BASE + PATHS.orderBuy;
  const parts = [0, 1, 2, 3].map((k) => jobs.filter((_, i) => i % 4 === k));
  const results = (await Promise.all(parts.map((p) => runClient(url, p)))).flat();
  const byCode = new Map<number | null, number>();
  for (const r of results) byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
  return { users, results, byCode };
}
