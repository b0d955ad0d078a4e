// Test harness: a real Canopy server on 127.0.0.1 (port 0), a fresh SQLite file under os.tmpdir() per
// call, a ManualClock the test controls, and small helpers around the HTTP API and the database.
import fs from 'node:fs';
import { expect } from 'vitest';
import { databaseEnv, dropDatabase, knownDatabaseEnv } from './database';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { loadConfig } from '../../src/server/config';
import { startServer, type RunningServer } from '../../src/server/server';
import { ManualClock } from '../../src/server/lib/clock';
import type { DB } from '../../src/server/db/connection';
import { API_BASE, PATHS } from '../../src/shared/api';
import { errorMessage, ERRORS, type ErrorKey, type Lang, type MessageParams } from '../../src/shared/errors';
import type { LoginInfo } from '../../src/shared/schemas/auth';
import { checkAnswer } from './contract';

export const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** Monday 2026-03-02 10:00 SGT: a working day, far from holidays. */
export const T0 = Date.UTC(2026, 2, 2, 2, 0, 0);
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export interface Envelope<T = any> {
  code: number;
  msg: string;
  data: T;
  wait: number;
  time: number;
}

export interface ApiOptions {
  token?: string;
  lang?: Lang;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  clock: ManualClock;
  db: DB;
  running: RunningServer;
  close(): Promise<void>;
  /** GET sends data in the query string (lang too); POST sends JSON with lang in the body. */
  api<T = any>(method: 'GET' | 'POST', p: string, data?: Record<string, unknown>, opts?: ApiOptions): Promise<Envelope<T>>;
  /** The raw fetch Response, for status/header checks. */
  raw(method: string, p: string, init?: { body?: string | Uint8Array; headers?: Record<string, string>; query?: string }): Promise<Response>;
}

/** A loopback port free at the time of asking, for a server a test spawns as its own process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Canopy servers run as their own processes (src/server/main.ts) on one data directory, for the tests that
 *  kill one with SIGKILL and start another on the same data. `env` is added to every start's. */
export function serverProcesses(dataDir: string, env: Record<string, string> = {}) {
  const spawned: ChildProcess[] = []; // every server started here: none may outlive the test, whatever failed
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

  async function launch(port: number, more: Record<string, string>, stderr: 'pipe' | 'ignore'): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...(await databaseEnv(dataDir)),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        // Fast password hashing, as in every test server (startTestServer, runCli).
        ARGON2_MEMORY_KIB: '1024',
        ARGON2_TIME_COST: '1',
        ...env,
        ...more,
      },
      stdio: ['ignore', 'ignore', stderr],
    });
    spawned.push(child);
    return child;
  }

  async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!running(child)) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  return {
    /** Starts a server without waiting for it (port 0: whichever is free), for a test that watches the data instead. */
    spawn: (port = 0, more: Record<string, string> = {}) => launch(port, more, 'ignore'),

    /** Starts a server on `port` and waits until it answers, however long a cold start takes on a busy machine
     *  (20 s and more); a server that exits instead fails at once, with the last of what it said on stderr. */
    async start(port: number, more: Record<string, string> = {}): Promise<ChildProcess> {
      const child = await launch(port, more, 'pipe');
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        stderr = (stderr + d).slice(-4000);
      });
      for (;;) {
        if (!running(child)) throw new Error(`the server did not start (exit ${child.exitCode ?? child.signalCode}): ${stderr.trim() || '(nothing on stderr)'}`);
        try {
          if ((await fetch(`http://127.0.0.1:${port}${API_BASE}${PATHS.baseconfig}`)).ok) return child;
        } catch {
          // not up yet
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },

    /** Sends the signal (SIGKILL unless told) and waits until the process has exited. */
    stop,

    /** For afterAll: kills every server still running, then removes the data (its PostgreSQL schema too). */
    async close(): Promise<void> {
      for (const child of spawned) await stop(child);
      await dropDatabase(dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A personal member in good standing written straight into the database, for a server not started yet (a
 *  child one): its id. `password_hash` defaults to one no password matches, the payment password to none. */
export async function insertMember(
  db: DB,
  user: { email: string; first_name: string; last_name: string; invite_code: string; password_hash?: string; withdraw_password_hash?: string | null },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      password_hash: 'x', withdraw_password_hash: null, type: 'personal', company: '', uen: '', ic_number: '', mobile: '', avatar: '', invited_by: null, grade: 0,
      credit_score: 'excellent', risk: 0, disabled: 0, login_fails: 0, login_locked: 0, trade_fails: 0, trade_locked: 0, created_at: now, updated_at: now, ...user,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Asks every 50 ms until `what` holds or `ms` have passed; the caller's own expect then says what did not happen. */
export async function waitUntil(what: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

export function makeTmpDir(prefix = 'canopy-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** `opts.staticDir`: serve the app shell from there (default: a directory that does not exist, so the API only). */
export async function startTestServer(overrides: Record<string, string> = {}, opts: { now?: number; staticDir?: string; waitFirstRun?: boolean } = {}): Promise<TestServer> {
  const dataDir = overrides.DATA_DIR ?? makeTmpDir();
  const config = loadConfig({
    ...(await databaseEnv(dataDir)),
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    // OWASP's argon2id is m=19 MiB, t=2 (the production default); 1 MiB, t=1 here only so tests run fast.
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    THROTTLE_DELAY_MS: '0', // refusals at once in tests (the delay is for live clients looping on them)
    ...overrides,
  });
  const clock = new ManualClock(opts.now ?? T0);
  const running = await startServer(config, { clock, staticDir: opts.staticDir ?? path.join(dataDir, 'no-static') });
  // What fell due before the start is done before a test's first request, as it is for a short stop
  // (unless the test is about that wait).
  if (opts.waitFirstRun !== false) await running.firstRun;
  const url = running.url;

  // Every answer from the API is checked against the OpenAPI document (contract.ts): raw() reads a copy.
  async function fetchChecked(method: string, full: string, init: RequestInit): Promise<Response> {
    const res = await fetch(full, init);
    if (new URL(full).pathname.startsWith(API_BASE + '/')) {
      const type = res.headers.get('content-type');
      const text = (type ?? '').includes('application/json') && method !== 'HEAD' ? await res.clone().text() : null;
      let body: unknown = null;
      if (text !== null) {
        try {
          body = JSON.parse(text);
        } catch {
          throw new Error(`contract: ${method} ${full} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
        }
      }
      checkAnswer(method, full, res.status, type, body);
    }
    return res;
  }

  async function raw(method: string, p: string, init: { body?: string | Uint8Array; headers?: Record<string, string>; query?: string } = {}) {
    const full = url + (p.startsWith('/h5/') ? p : API_BASE + p) + (init.query ? `?${init.query}` : '');
    return fetchChecked(method, full, { method, headers: init.headers, body: init.body as BodyInit | undefined });
  }

  async function api<T = any>(method: 'GET' | 'POST', p: string, data: Record<string, unknown> = {}, o: ApiOptions = {}): Promise<Envelope<T>> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.Authorization = o.token;
    if (o.idempotencyKey) headers['Idempotency-Key'] = o.idempotencyKey;
    let res: Response;
    if (method === 'GET') {
      const qs = new URLSearchParams();
      for (const [k, val] of Object.entries(data)) if (val !== undefined) qs.set(k, String(val));
      if (o.lang) qs.set('lang', o.lang);
      res = await raw('GET', p, { headers, query: qs.toString() });
    } else {
      headers['Content-Type'] = 'application/json';
      res = await raw('POST', p, { headers, body: JSON.stringify(o.lang ? { ...data, lang: o.lang } : data) });
    }
    const text = await res.text();
    // A throttle answers 429 with the envelope and Retry-After; any other non-200 is a failure here.
    if (res.status === 429) {
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      return JSON.parse(text) as Envelope<T>;
    }
    if (res.status !== 200) throw new Error(`${method} ${p} answered HTTP ${res.status}: ${text}`);
    return JSON.parse(text) as Envelope<T>;
  }

  return {
    url,
    port: running.port,
    dataDir,
    clock,
    db: running.deps.db,
    running,
    api,
    raw,
    async close() {
      await running.close();
      await dropDatabase(dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The last mail to an address other than a receipt (from the outbox table): the one a code is in. */
export async function lastMail(db: DB, email: string) {
  return db.selectFrom('outbox').selectAll().where('to_email', '=', email.toLowerCase()).where('receipt_id', 'is', null).orderBy('id', 'desc').executeTakeFirst();
}

/** The 6-digit code of the last mail to an address. */
export async function lastCode(db: DB, email: string): Promise<string> {
  const mail = await lastMail(db, email);
  const m = mail && /\b(\d{6})\b/.exec(mail.body);
  if (!m) throw new Error(`no verification code in the outbox for ${email}`);
  return m[1]!;
}

export const GOOD_PASSWORD = 'Forest2026a';

export interface RegisterOpts {
  password?: string;
  type?: 'personal' | 'corporate';
  company?: string;
  uen?: string;
  invite_code?: string;
  lang?: Lang;
}

/** sendcode -> code from the outbox -> register. Returns the login info (throws on a refusal). */
export async function registerUser(server: TestServer, email: string, opts: RegisterOpts = {}): Promise<LoginInfo & { password: string }> {
  const password = opts.password ?? GOOD_PASSWORD;
  const sent = await server.api('POST', PATHS.sendcode, { email, scene: 'register' }, { lang: opts.lang });
  if (sent.code !== 0) throw new Error(`sendcode refused: ${sent.code} ${sent.msg}`);
  const code = await lastCode(server.db, email);
  const res = await server.api<LoginInfo>(
    'POST',
    PATHS.register,
    {
      email,
      code,
      password,
      repassword: password,
      agree: true,
      type: opts.type ?? 'personal',
      ...(opts.company !== undefined ? { company: opts.company } : {}),
      ...(opts.uen !== undefined ? { uen: opts.uen } : {}),
      ...(opts.invite_code !== undefined ? { invite_code: opts.invite_code } : {}),
    },
    { lang: opts.lang },
  );
  if (res.code !== 0) throw new Error(`register refused: ${res.code} ${res.msg}`);
  return { ...res.data, password };
}

export async function login(server: TestServer, email: string, password: string): Promise<Envelope<LoginInfo>> {
  return server.api<LoginInfo>('POST', PATHS.login, { email, password, agree: true });
}

/** Everything the "nothing changed" assertions compare. */
export async function dbSnapshot(db: DB) {
  const [users, sessions, verification_codes, ledger_accounts, fund_logs, outbox] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('sessions').selectAll().orderBy('id').execute(),
    db.selectFrom('verification_codes').selectAll().orderBy('id').execute(),
    db.selectFrom('ledger_accounts').selectAll().orderBy('id').execute(),
    db.selectFrom('fund_logs').selectAll().orderBy('id').execute(),
    db.selectFrom('outbox').selectAll().orderBy('id').execute(),
  ]);
  return {
    counts: { users: users.length, sessions: sessions.length, verification_codes: verification_codes.length, ledger_accounts: ledger_accounts.length, fund_logs: fund_logs.length, outbox: outbox.length },
    users,
    sessions,
    verification_codes,
    ledger_accounts,
    fund_logs,
    // A receipt's mail is claimed and sent by the server's mail job whenever it runs: not a request's doing.
    outbox: outbox.map((m) => (m.receipt_id === null ? m : { id: m.id, to_email: m.to_email, receipt_id: m.receipt_id, created_at: m.created_at })),
  };
}

/** The envelope a catalogue refusal must have in a language. */
export function refusal(key: ErrorKey, lang: Lang = 'en', params?: MessageParams) {
  return { code: ERRORS[key].code, msg: errorMessage(key, lang, params) };
}

/** A test that starts the operator CLI (npx tsx, a cold start), which can take over 30 s on a loaded
 *  2-core machine.
 *  Above runCli's own limit, so a CLI that hangs fails there, with its output. */
export const CLI_TEST_TIMEOUT_MS = 120_000;

/** Runs the operator CLI (src/server/ops/cli.ts) as a child process against a data directory. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  opts: { json?: boolean; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; json: unknown }> {
  const argv = ['tsx', 'src/server/ops/cli.ts', ...args, ...(opts.json === false ? [] : ['--json'])];
  return new Promise((resolve, reject) => {
    const child = spawn('npx', argv, {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ...knownDatabaseEnv(env.DATA_DIR), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = null;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

export const cliExists = (): boolean => fs.existsSync(path.join(REPO_ROOT, 'src/server/ops/cli.ts'));

/** Runs a TypeScript entry point with tsx as a child process (used for main.ts start-up checks). A cold
 *  start, like the CLI's: the limit is runCli's. */
export function runTsx(file: string, env: Record<string, string>, timeoutMs = 90_000) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('npx', ['tsx', file], { cwd: REPO_ROOT, env: { ...process.env, ...knownDatabaseEnv(env.DATA_DIR), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not exit\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
