// A webhook receiver for the tests: a real HTTP server on loopback that records every request (its
// headers, body and time) and answers what the test's `answer` says (a status, after an optional wait).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** What the next request is answered with: a status and how long to wait first. */
  answer: (req: Received, n: number) => { status: number; delayMs?: number };
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const r: Receiver = {
    url: '',
    port: 0,
    received,
    answer: () => ({ status: 200 }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      const got: Received = { path: req.url ?? '/', headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body, at: Date.now() };
      received.push(got);
      const { status, delayMs = 0 } = r.answer(got, received.length);
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      }, delayMs);
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  const close = r.close;
  r.close = () => {
    server.closeAllConnections();
    return close();
  };
  return r;
}
