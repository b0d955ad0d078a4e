// Starting while another process holds the port (src/server/main.ts): the real server process says which
// port is taken and what to do, without a stack trace, and exits non-zero. Both databases.
import net from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, freePort, makeTmpDir, runTsx } from '../helpers/server';
import { databaseEnv, dropDatabase } from '../helpers/database';

const dir = makeTmpDir();
afterAll(async () => dropDatabase(dir));

it(
  'names the taken port and PORT, prints no stack, and exits non-zero',
  async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const res = await runTsx('src/server/main.ts', { ...(await databaseEnv(dir)), DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port), SEED_DEMO: 'false', LOG_LEVEL: 'silent' });
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toContain(`Port ${port} on 127.0.0.1 is in use by another process`);
      expect(res.stderr).toContain('PORT=');
      expect(res.stderr).not.toMatch(/^\s+at /m);
      expect(res.stderr).not.toContain('EADDRINUSE:');
      expect(res.stdout).not.toContain('is running');
    } finally {
      holder.close();
    }
  },
  CLI_TEST_TIMEOUT_MS,
);
