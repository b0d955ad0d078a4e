// A push that fails (docs/decisions/0033-web-push.md): each failure leaves one structured log line with
// its cause (the push service's status, a DNS lookup, a refused connection, TLS, a timeout), and at the
// default PUSH_RETRY_MS the 8 tries span about two hours. Real HTTP, real sockets, both databases.
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import { sendDuePushes } from '../../src/server/live/push-sender';
import { notify } from '../../src/server/live/notices';
import { writeTx } from '../../src/server/db/tx';
import type { Logger } from '../../src/server/lib/log';
import { freePort, MIN, startTestServer, type TestServer } from '../helpers/server';
import { newDevice, startPushService, type PushService } from '../helpers/push-service';
import { makeUser } from './market-helpers';
import { write } from './org-helpers';

let s: TestServer;
let push: PushService;
let hanging: http.Server;
let hangingPort = 0;
const held: net.Socket[] = [];

beforeAll(async () => {
  push = await startPushService();
  // A push service that takes the connection and never answers.
  hanging = http.createServer(() => undefined);
  hanging.on('connection', (c) => held.push(c));
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingPort = (hanging.address() as AddressInfo).port;
  // PUSH_RETRY_MS is left at its default: the schedule below is the one a deployment gets.
  s = await startTestServer({ SEED_DEMO: 'false', PUSH_HOSTS: '127.0.0.1,nowhere.invalid' });
  await s.running.scheduler.stop();
});
afterAll(async () => {
  await s?.close();
  await push?.close();
  for (const c of held) c.destroy();
  await new Promise<void>((resolve) => hanging.close(() => resolve()));
});

interface Line {
  level: string;
  msg: string;
  extra: Record<string, unknown>;
}

/** The sender run with a logger that keeps its lines. */
async function sendLogged(): Promise<Line[]> {
  const lines: Line[] = [];
  const keep = (level: string) => (msg: string, extra?: unknown) => void lines.push({ level, msg, extra: (extra ?? {}) as Record<string, unknown> });
  const log: Logger = { error: keep('error'), info: keep('info'), debug: keep('debug') };
  await sendDuePushes({ ...s.running.deps, log });
  return lines;
}

/** A member whose one device is at `endpoint`, with one notice queued for it. */
async function queuedAt(endpoint: string): Promise<number> {
  const u = await makeUser(s);
  const on = await write(s, PATHS.pushSubscribe, u.token, newDevice().subscription(endpoint));
  expect(on.code, on.msg).toBe(0);
  return writeTx(s.db, (_tx, w) => notify(w, u.id, { title: 'T', title_cn: 'T', body: 'B', body_cn: 'B' }, s.clock.now()));
}

/** Sends what is due until `notice`'s push is no longer queued; the log lines of its sends. */
async function failures(notice: number): Promise<Line[]> {
  const lines = await sendLogged();
  await s.db.deleteFrom('push_queue').where('notification_id', '=', notice).execute();
  return lines.filter((l) => l.extra.notice === notice);
}

describe('a failed push send logs its cause', () => {
  it("the push service's status", async () => {
    const endpoint = push.endpoint('busy');
    push.answer.set('/push/busy', 503);
    const notice = await queuedAt(endpoint);
    const [line, ...more] = await failures(notice);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ msg: 'push: send failed', extra: { notice, host: '127.0.0.1', attempt: 1, cause: 'status', status: 503, outcome: 'retry' } });
    // The endpoint's path is the device's secret: only its host is logged.
    expect(JSON.stringify(line)).not.toContain('/push/busy');
  });

  it('a DNS lookup that fails', async () => {
    const notice = await queuedAt('https://nowhere.invalid/push/x');
    const [line] = await failures(notice);
    expect(line).toMatchObject({ extra: { host: 'nowhere.invalid', cause: 'dns', outcome: 'retry' } });
    expect(line!.extra.code).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
  });

  it('a refused connection, and TLS spoken to a server that does not', async () => {
    const closed = await freePort();
    const refused = await queuedAt(`http://127.0.0.1:${closed}/push/x`);
    expect((await failures(refused))[0]).toMatchObject({ extra: { cause: 'connect', code: 'ECONNREFUSED', outcome: 'retry' } });
    const tls = await queuedAt(`https://127.0.0.1:${new URL(push.origin).port}/push/x`);
    expect((await failures(tls))[0]).toMatchObject({ extra: { cause: 'tls', outcome: 'retry' } });
  });

  it('a push service that never answers', async () => {
    const notice = await queuedAt(`http://127.0.0.1:${hangingPort}/push/x`);
    expect((await failures(notice))[0]).toMatchObject({ extra: { cause: 'timeout', outcome: 'retry' } });
  }, 30_000);
});

describe('the retry schedule', () => {
  it('8 tries at the default PUSH_RETRY_MS span about two hours, then the push is dropped (logged)', async () => {
    const endpoint = push.endpoint('down');
    push.answer.set('/push/down', 502);
    const notice = await queuedAt(endpoint);
    const start = s.clock.now();
    const tries: number[] = [];
    let last: Line | undefined;
    for (let i = 0; i < 20; i++) {
      const row = await s.db.selectFrom('push_queue').select('next_at').where('notification_id', '=', notice).executeTakeFirst();
      if (!row) break;
      s.clock.set(Math.max(s.clock.now(), row.next_at));
      tries.push(s.clock.now() - start);
      const lines = (await sendLogged()).filter((l) => l.extra.notice === notice);
      last = lines.at(-1);
    }
    expect(tries).toHaveLength(8);
    const span = tries.at(-1)! / MIN;
    expect(span).toBeGreaterThan(115);
    expect(span).toBeLessThan(135);
    expect(last).toMatchObject({ level: 'error', extra: { attempt: 8, cause: 'status', status: 502, outcome: 'drop' } });
  });
});
