// Writes the OpenAPI document to a file (npm run lint:openapi lints it with redocly): the document as
// this configuration's server would serve it (PUBLIC_URL from the environment, else localhost:PORT).
import fs from 'node:fs';
import { loadConfig } from './config';
import { openApiDocument } from './openapi';

const out = process.argv[2];
if (!out) {
  console.error('usage: tsx src/server/openapi-write.ts <file.json>');
  process.exit(2);
}
fs.writeFileSync(out, JSON.stringify(openApiDocument(loadConfig(process.env)), null, 2) + '\n');
