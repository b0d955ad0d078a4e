import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Builds the app and runs the real server (src/server/main.ts) as a separate process, for the browser
// tests (tests/e2e) and the Lighthouse bench (bench/lighthouse.ts). The running server is described by a
// small JSON state file, so a test worker (a different process from the one that started it) can stop it
// and start it again on the same port and data directory.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The browser tests' server: one address registers every test's users, so the per-address hourly limits
 *  (10 registrations, 20 codes; the subject of tests/server/throttle.test.ts) are raised. */
// WEBHOOK_ALLOW_PRIVATE: the webhook specs' receivers listen on loopback.
export const E2E_SERVER_ENV: Record<string, string> = { REGISTRATIONS_PER_IP_PER_HOUR: '1000', CODES_PER_IP_PER_HOUR: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The launch flags every browser run uses (Playwright adds its own headless flag as well). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const READY_PATH = '/h5/api/api/login/baseconfig';

export interface ServerState {
  pid: number;
  port: number;
  url: string;
  dataDir: string;
  logFile: string;
}

// ---------------------------------------------------------------- build

function newestMtime(p: string): number {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** True when dist/ is missing or older than anything the client build reads. */
export function buildIsStale(): boolean {
  const built = path.join(ROOT, 'dist', 'index.html');
  const sw = path.join(ROOT, 'dist', 'sw.js');
  if (!fs.existsSync(built) || !fs.existsSync(sw)) return true;
  const builtAt = Math.min(fs.statSync(built).mtimeMs, fs.statSync(sw).mtimeMs);
  const inputs = ['src/app', 'src/shared', 'public', 'locales', 'vite.config.ts', 'lingui.config.ts', 'package.json'];
  return inputs.some((rel) => newestMtime(path.join(ROOT, rel)) > builtAt);
}

/** Builds with `npx vite build` when needed (always when CI or E2E_BUILD=always; never when E2E_BUILD=never). */
export function ensureBuilt(log: (line: string) => void = console.log): void {
  const mode = process.env.E2E_BUILD ?? (process.env.CI ? 'always' : 'auto');
  if (mode === 'never') return;
  if (mode !== 'always' && !buildIsStale()) {
    log('dist/ is up to date: not rebuilding');
    return;
  }
  log('building the app: npx vite build');
  const started = Date.now();
  const res = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (res.status !== 0) throw new Error(`vite build failed (exit ${res.status ?? res.signal})`);
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------- ports and data

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export function freshDataDir(prefix = 'canopy-e2e-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// ---------------------------------------------------------------- server process

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readLogTail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Waits until GET baseconfig answers 200, or throws with the server log's tail. */
export async function waitReady(url: string, pid: number, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) throw new Error(`the server exited before it was ready. Log:\n${readLogTail(logFile)}`);
    try {
      const res = await fetch(url + READY_PATH, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  throw new Error(`the server did not answer ${READY_PATH} within ${timeoutMs} ms. Log:\n${readLogTail(logFile)}`);
}

/**
 * Starts `node --import tsx src/server/main.ts` (one process, so its pid is the server) detached from the
 * caller, with PORT, DATA_DIR, HOST=127.0.0.1 and LOG_LEVEL=info, appending its output to logFile.
 */
export async function spawnServer(opts: {
  port: number;
  dataDir: string;
  logFile: string;
  env?: Record<string, string>;
  /** Another checkout to run (its src/server and dist/), e.g. a bench's baseline build; default ROOT. */
  cwd?: string;
}): Promise<ServerState> {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const fd = fs.openSync(opts.logFile, 'a');
  fs.writeSync(fd, `\n==== ${new Date().toISOString()} starting server on port ${opts.port}, DATA_DIR=${opts.dataDir}\n`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: opts.cwd ?? ROOT,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: {
      ...process.env,
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...opts.env,
    },
  });
  child.unref();
  fs.closeSync(fd);
  if (!child.pid) throw new Error('could not start the server process');
  const url = `http://127.0.0.1:${opts.port}`;
  await waitReady(url, child.pid, opts.logFile);
  return { pid: child.pid, port: opts.port, url, dataDir: opts.dataDir, logFile: opts.logFile };
}

/** SIGTERM (the server closes cleanly), SIGKILL after 10 s; resolves when the process is gone and the port is free. */
export async function killServer(pid: number, port?: number): Promise<void> {
  if (alive(pid)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await sleep(50);
    if (alive(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      while (alive(pid)) await sleep(50);
    }
  }
  if (port) {
    // The port must refuse connections: that is what "the network is down" means to the browser.
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await portAnswers(port))) await sleep(50);
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

export function readState(file: string): ServerState | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as ServerState;
  } catch {
    return null;
  }
}

export function writeState(file: string, state: ServerState | null): void {
  if (state) fs.writeFileSync(file, JSON.stringify(state, null, 2));
  else fs.rmSync(file, { force: true });
}
