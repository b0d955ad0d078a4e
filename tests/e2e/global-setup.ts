import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { E2E_SERVER_ENV, ROOT, ensureBuilt, freePort, freshDataDir, killServer, readState, spawnServer, writeState } from './server-control';

// Playwright global setup: build the app if needed, then start one real server per worker, each on a free
// port with a fresh DATA_DIR under the OS temp dir. A worker owns its server: the tests that stop and start
// the server, or change what every member sees (fees, registry state), never meet another worker's test.
// Where each server is reaches the workers through environment variables (set here, inherited by them),
// suffixed with the worker's parallel index (TEST_PARALLEL_INDEX, 0 .. workers-1; helpers.ts picks its own):
//   CANOPY_E2E_BASE_URL_<i>  http://127.0.0.1:<port>
//   CANOPY_E2E_DATA_DIR_<i>  the server's data directory (canopy.db inside)
//   CANOPY_E2E_STATE_<i>     a JSON file with {pid, port, url, dataDir, logFile}; helpers.ts stopServer()/startServer()
//                            update it, and the teardown below stops whatever server it names.
// E2E_KEEP_DATA=1 keeps the data directories after the run. Server i logs to test-results/e2e-server-<i>.log.

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  ensureBuilt((line) => console.log(`[e2e] ${line}`));
  const servers = Math.max(1, config.workers);
  const started = await Promise.allSettled(
    Array.from({ length: servers }, async (_, i) => {
      const dataDir = freshDataDir();
      const port = await freePort();
      const logFile = path.join(ROOT, 'test-results', `e2e-server-${i}.log`);
      fs.mkdirSync(path.dirname(logFile), { recursive: true });
      fs.writeFileSync(logFile, '');
      const stateFile = path.join(dataDir, 'e2e-server.json');
      const state = await spawnServer({ port, dataDir, logFile, env: E2E_SERVER_ENV });
      writeState(stateFile, state);
      process.env[`CANOPY_E2E_BASE_URL_${i}`] = state.url;
      process.env[`CANOPY_E2E_DATA_DIR_${i}`] = dataDir;
      process.env[`CANOPY_E2E_STATE_${i}`] = stateFile;
      console.log(`[e2e] server ${i}: ${state.url} (pid ${state.pid}), DATA_DIR=${dataDir}, log ${path.relative(ROOT, logFile)}`);
      return { stateFile, dataDir, pid: state.pid };
    }),
  );
  const stateFiles = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // The servers run detached: one that started must not outlive a setup that failed (no teardown runs).
    for (const { pid } of stateFiles) await killServer(pid);
    throw failed.reason;
  }

  return async () => {
    for (const { stateFile, dataDir } of stateFiles) {
      const current = readState(stateFile);
      if (current?.pid) await killServer(current.pid);
      if (process.env.E2E_KEEP_DATA) console.log(`[e2e] kept DATA_DIR=${dataDir}`);
      else fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
}
