// Writes the OpenAPI documents to files (npm run lint:openapi lints them with redocly): the app's and,
// when a second file is named, the integrators' /v1 document, as this configuration's server would serve
// them (PUBLIC_URL from the environment, else localhost:PORT).
import fs from 'node:fs';
import { loadConfig } from './config';
import { openApiDocument } from './openapi';
import { v1Document } from './modules/v1/openapi';

const [out, outV1] = process.argv.slice(2);
if (!out) {
  console.error('usage: tsx src/server/openapi-write.ts <file.json> [<v1-file.json>]');
  process.exit(2);
}
const config = loadConfig(process.env);
fs.writeFileSync(out, JSON.stringify(openApiDocument(config), null, 2) + '\n');
if (outV1) fs.writeFileSync(outV1, JSON.stringify(v1Document(config), null, 2) + '\n');
