// Vitest global setup of the contract tests (tests/helpers/contract.ts): a directory where every worker
// appends the operationIds it saw answer with success; at the end of the run, how many of the OpenAPI
// document's operations that is, and which were never seen.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openApiDocument } from '../../src/server/openapi';

export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-contract-'));
  project.provide('contractSeenDir', dir);
  return () => {
    const seen = new Set<string>();
    for (const f of fs.readdirSync(dir)) for (const id of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) if (id) seen.add(id);
    fs.rmSync(dir, { recursive: true, force: true });
    if (seen.size === 0) return; // no server test ran
    const doc = openApiDocument({ PUBLIC_URL: 'http://127.0.0.1', PORT: 0 }) as { paths: Record<string, Record<string, { operationId: string }>> };
    const all = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    const unseen = all.filter((id) => !seen.has(id));
    console.log(`\ncontract: ${all.length - unseen.length} of ${all.length} operations seen${unseen.length ? ` (never seen answering: ${unseen.join(', ')})` : ''}`);
  };
}
