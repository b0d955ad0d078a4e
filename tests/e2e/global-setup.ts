import fs from 'node:fs';
import path from 'node:path';
import { E2E_SERVER_ENV, ROOT, ensureBuilt, freePort, freshDataDir, killServer, readState, spawnServer, writeState } from './server-control';

// Playwright global setup: build the app if needed, start the real server on a free port with a fresh
// DATA_DIR under the OS temp dir, and tell the tests where it is through environment variables (set here,
// inherited by the worker processes):
//   CANOPY_E2E_BASE_URL  http://127.0.0.1:<port>
//   CANOPY_E2E_DATA_DIR  the server's data directory (canopy.db inside)
//   CANOPY_E2E_STATE     a JSON file with {pid, port, url, dataDir, logFile}; helpers.ts stopServer()/startServer()
//                        update it, and the teardown below stops whatever server it names.
// E2E_KEEP_DATA=1 keeps the data directory after the run. The server log goes to test-results/e2e-server.log.

export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureBuilt((line) => console.log(`[e2e] ${line}`));
  const dataDir = freshDataDir();
  const port = await freePort();
  const logFile = path.join(ROOT, 'test-results', 'e2e-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(logFile, '');
  const stateFile = path.join(dataDir, 'e2e-server.json');
  const state = await spawnServer({ port, dataDir, logFile, env: E2E_SERVER_ENV });
  writeState(stateFile, state);
  process.env.CANOPY_E2E_BASE_URL = state.url;
  process.env.CANOPY_E2E_DATA_DIR = dataDir;
  process.env.CANOPY_E2E_STATE = stateFile;
  console.log(`[e2e] server ${state.url} (pid ${state.pid}), DATA_DIR=${dataDir}, log ${path.relative(ROOT, logFile)}`);

  return async () => {
    const current = readState(stateFile);
    if (current?.pid) await killServer(current.pid);
    if (process.env.E2E_KEEP_DATA) console.log(`[e2e] kept DATA_DIR=${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
