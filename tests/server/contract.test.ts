// The contract check itself (docs/decisions/0012-api-contract.md): the validator the test client runs on
// every answer (tests/helpers/contract.ts) must fail on a renamed field, a field added without a schema, a
// wrong type, and on an answer from an operation the document does not list; and a schema broken on purpose
// must make a real answer fail. Also: every operation carries what the document needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContract } from '../helpers/contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { API_BASE, PATHS } from '../../src/shared/api';
import { ENDPOINTS, openApiDocument, operationErrors } from '../../src/server/openapi';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

async function realAnswer(p: string, query = '') {
  const res = await s.raw('GET', p, { query });
  return { url: `${s.url}${API_BASE}${p}`, status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}

describe('the contract check', () => {
  const contract = createContract();

  it('passes the real answers', async () => {
    const list = await realAnswer(PATHS.projectLists);
    expect(list.body.data.list.length).toBeGreaterThan(0);
    expect(contract.check('GET', list.url, list.status, list.type, list.body)).toEqual({ id: 'projectLists', success: true });
    const detail = await realAnswer(PATHS.projectDetail, `id=${list.body.data.list[0].id}`);
    expect(contract.check('GET', detail.url, detail.status, detail.type, detail.body)).toEqual({ id: 'projectDetail', success: true });
  });

  it('fails an answer with a renamed field', async () => {
    const a = await realAnswer(PATHS.projectLists);
    const body = clone(a.body);
    const { name, ...rest } = body.data.list[0];
    body.data.list[0] = { ...rest, title: name };
    expect(() => contract.check('GET', a.url, a.status, a.type, body)).toThrow(/\/data\/list\/0 must have required property 'name'/);
  });

  it('fails an answer with a field the schema does not name', async () => {
    const a = await realAnswer(PATHS.baseconfig);
    const body = clone(a.body);
    body.data.limits.surprise = 1;
    expect(() => contract.check('GET', a.url, a.status, a.type, body)).toThrow(/must NOT have additional properties \(surprise\)/);
    const top = clone(a.body);
    top.extra = true;
    expect(() => contract.check('GET', a.url, a.status, a.type, top)).toThrow(/additional properties \(extra\)/);
  });

  it('fails an answer with a field of the wrong type', async () => {
    const a = await realAnswer(PATHS.projectLists);
    const body = clone(a.body);
    body.data.list[0].price = String(body.data.list[0].price);
    expect(() => contract.check('GET', a.url, a.status, a.type, body)).toThrow(/\/data\/list\/0\/price must be integer/);
    const nulled = clone(a.body);
    nulled.data.total = null;
    expect(() => contract.check('GET', a.url, a.status, a.type, nulled)).toThrow(/\/data\/total must be integer/);
  });

  it('fails a refusal that is not the error envelope, and passes one that is', async () => {
    const a = await realAnswer(PATHS.projectDetail, 'id=999999');
    expect(a.body.code).toBeGreaterThan(0);
    expect(contract.check('GET', a.url, a.status, a.type, a.body)).toEqual({ id: 'projectDetail', success: false });
    expect(() => contract.check('GET', a.url, a.status, a.type, { ...a.body, reason: 'x' })).toThrow(/additional properties \(reason\)/);
  });

  it('fails an answer from an operation the document does not list', () => {
    expect(() => contract.check('GET', `${s.url}${API_BASE}/api/project/secret`, 200, 'application/json', { code: 0, msg: 'ok', data: {}, wait: 0 })).toThrow(/no such operation/);
    expect(() => contract.check('POST', `${s.url}${API_BASE}${PATHS.projectLists}`, 200, 'application/json', { code: 0, msg: 'ok', data: {}, wait: 0 })).toThrow(/no such operation/);
  });

  it('a schema broken on purpose makes the real answer fail; the served document passes it again', async () => {
    const a = await realAnswer(PATHS.projectDetail, 'id=1');
    expect(a.body.code).toBe(0);
    const doc = clone(openApiDocument({ PUBLIC_URL: 'http://127.0.0.1', PORT: 0 })) as any;
    const project = doc.components.schemas.Project;
    // The document renames `name` to `title`: the server's real answer now breaks the contract.
    project.properties.title = project.properties.name;
    delete project.properties.name;
    project.required = project.required.map((k: string) => (k === 'name' ? 'title' : k));
    const broken = createContract(doc);
    expect(() => broken.check('GET', a.url, a.status, a.type, a.body)).toThrow(/must have required property 'title'/);
    // A type changed on purpose fails too.
    const typed = clone(openApiDocument({ PUBLIC_URL: 'http://127.0.0.1', PORT: 0 })) as any;
    typed.components.schemas.Project.properties.progress = { type: 'string' };
    expect(() => createContract(typed).check('GET', a.url, a.status, a.type, a.body)).toThrow(/\/data\/progress must be string/);
    // Restored (the served document): the same answer passes.
    expect(createContract().check('GET', a.url, a.status, a.type, a.body)).toEqual({ id: 'projectDetail', success: true });
  });
});

describe('the document', () => {
  it('every operation has a camelCase operationId (unique), a tag, an answer schema and its errors', () => {
    const ids = ENDPOINTS.map((e) => e.operationId);
    expect(ENDPOINTS.filter((e) => !e.operationId || !/^[a-z][A-Za-z0-9]*$/.test(e.operationId)).map((e) => `${e.method} ${e.path}`)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ENDPOINTS.filter((e) => !e.tag).map((e) => e.operationId)).toEqual([]);
    expect(ENDPOINTS.filter((e) => !e.bare && !e.answer).map((e) => e.operationId)).toEqual([]);
    // Writes that take an Idempotency-Key say so (every POST but the session ones and those answering a secret).
    const unkeyed = ENDPOINTS.filter((e) => e.method === 'post' && e.auth === 'user' && !e.idempotent && !e.answersSecret).map((e) => e.operationId);
    expect(unkeyed).toEqual([]);
  });

  it('lists the catalogue codes an operation refuses with, by number and English message', async () => {
    const doc = (await (await s.raw('GET', PATHS.openapi)).json()) as any;
    const buy = doc.paths[API_BASE + PATHS.orderBuy].post;
    expect(buy.operationId).toBe('orderBuy');
    const codes = buy['x-error-codes'] as { code: number; key: string; message: string }[];
    expect(codes).toContainEqual({ code: 1606, key: 'insufficient_remaining', message: 'Insufficient amount remaining.' });
    expect(codes.map((c) => c.key)).toEqual(expect.arrayContaining(['session_expired', 'guest_forbidden', 'idempotency_mismatch', 'required', 'invalid_number']));
    expect(buy.description).toContain('1606 `insufficient_remaining`: Insufficient amount remaining.');
    expect(buy.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(buy.security).toEqual([{ token: [] }]);
    const list = doc.paths[API_BASE + PATHS.projectLists].get;
    expect(list.security).toEqual([]);
    expect(list.parameters.some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey')).toBe(false);
    expect(operationErrors(ENDPOINTS.find((e) => e.operationId === 'loginLogin')!)).toContain('login_incorrect');
  });

  it('names the configured public URL as its server', async () => {
    expect((openApiDocument({ PUBLIC_URL: 'https://canopy.example.sg', PORT: 0 }) as any).servers).toEqual([{ url: 'https://canopy.example.sg', description: expect.any(String) }]);
    const served = (await (await s.raw('GET', PATHS.openapi)).json()) as any;
    expect(served.servers[0].url).toBe(s.url);
  });
});

describe('the reference page (GET /h5/api/docs)', () => {
  it('serves Swagger UI from this server under its own CSP, reading the served document', async () => {
    const page = await s.raw('GET', PATHS.docs);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|https?:/);
    const html = await page.text();
    expect(html).not.toMatch(/<script>|https?:\/\//); // no inline script, nothing from elsewhere
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs-init.js', 'docs.css']) expect(html).toContain(`${API_BASE}/docs/${file}`);
    const init = await s.raw('GET', '/docs/docs-init.js');
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await init.text()).toContain(`${API_BASE}${PATHS.openapi}`);
    const bundle = await s.raw('GET', '/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
    const etag = bundle.headers.get('etag')!;
    expect((await s.raw('GET', '/docs/swagger-ui-bundle.js', { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('serves nothing else from the package: any other name is the 404 envelope', async () => {
    for (const name of ['package.json', 'index.html', '..%2F..%2Fpackage.json', 'swagger-ui.js.map']) {
      const res = await s.raw('GET', `/docs/${name}`);
      expect(res.status, name).toBe(404);
      expect(((await res.json()) as { code: number }).code).toBe(1009);
    }
  });
});
