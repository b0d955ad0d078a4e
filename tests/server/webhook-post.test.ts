import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/server/modules/webhook/post';

// One try of a delivery, against a real receiver on loopback; the name lookup is a stand-in so a resolver
// that hangs or answers with a private address can be played.

let receiver: http.Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    hits += 1;
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('a webhook try', () => {
  it('counts the name lookup inside its time limit: a resolver that never answers is a timeout', async () => {
    const result = await postWebhook(`http://hooks.example.test:${port}/in`, '{}', {}, {
      timeoutMs: 200,
      allowPrivate: true,
      lookupName: () => new Promise(() => {}),
    });
    expect(result).toMatchObject({ status: 0, error: 'timeout' });
    expect(hits).toBe(0);
  });

  it('refuses a name that resolves to a private address, and sends nothing', async () => {
    for (const address of ['10.0.0.7', '169.254.169.254', '192.168.1.1']) {
      const result = await postWebhook(`https://hooks.example.test:${port}/in`, '{}', {}, {
        timeoutMs: 1000,
        allowPrivate: false,
        lookupName: async () => [{ address, family: 4 }],
      });
      expect(result).toMatchObject({ status: 0, error: 'address_refused' });
    }
    const mixed = await postWebhook(`https://hooks.example.test:${port}/in`, '{}', {}, {
      timeoutMs: 1000,
      allowPrivate: false,
      lookupName: async () => [{ address: '93.184.216.34', family: 4 }, { address: '::ffff:127.0.0.1', family: 6 }],
    });
    expect(mixed).toMatchObject({ status: 0, error: 'address_refused' });
    expect(hits).toBe(0);
  });

  it('sends to the address the lookup answered, with the time left after the lookup', async () => {
    const result = await postWebhook(`http://hooks.example.test:${port}/in`, '{}', {}, {
      timeoutMs: 5000,
      allowPrivate: true,
      lookupName: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(result).toMatchObject({ status: 204, error: null });
    expect(hits).toBe(1);
  });
});
