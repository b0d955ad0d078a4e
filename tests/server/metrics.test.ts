// Metrics (issue 14): GET /metrics in Prometheus text, only with the bearer token; no token configured
// means no endpoint. The request counter of a route moves by exactly the requests sent, labelled by the
// route's template (raw paths never become labels).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

const TOKEN = 'metrics-token-0123456789abcdef';
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await s?.close();
});

const scrape = async () => {
  const res = await fetch(`${s.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics', () => {
  it('is refused without the token or with a wrong one', async () => {
    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`, { headers: { Authorization: TOKEN } })).status).toBe(401);
  });

  it('does not exist when no token is configured', async () => {
    const plain = await startTestServer();
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${plain.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("moves a route's request counter by exactly the requests sent, by template, with a latency histogram", async () => {
    const series = 'canopy_http_requests_total{method="GET",route="/h5/api/api/project/detail",status="200"}';
    const before = value(await scrape(), series);
    for (let i = 0; i < 7; i++) expect((await fetch(`${s.url}/h5/api/api/project/detail?id=1`)).status).toBe(200);
    const text = await scrape();
    expect(value(text, series)).toBe(before + 7);
    expect(value(text, 'canopy_http_request_duration_seconds_count{method="GET",route="/h5/api/api/project/detail"}')).toBeGreaterThanOrEqual(before + 7);
    expect(text).toMatch(/canopy_process_resident_memory_bytes \d+/);
  });

  it('never makes a label of a raw path', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${s.url}/h5/api/api/nothing-here-${i}`);
    await fetch(`${s.url}/pages/anything-${Date.now()}`);
    const text = await scrape();
    expect(text).not.toMatch(/nothing-here/);
    expect(text).not.toMatch(/anything-/);
    expect(text).toMatch(/route="\(none\)"/);
  });
});
