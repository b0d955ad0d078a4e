import { sql, type Kysely } from 'kysely';

// The static pages name the company through {company_name} (filled from COMPANY_NAME when answered), so the
// About, terms and privacy pages name the one legal entity the receipts and the PayNow QR name
// (docs/product.md#legal-entity). Pages seeded before wrote the demo company's name out: it becomes the
// placeholder. A page an operator wrote with another name stays as written.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update pages set body = replace(body, 'Canopy Pte. Ltd.', '{company_name}'), body_cn = replace(body_cn, 'Canopy Pte. Ltd.', '{company_name}')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update pages set body = replace(body, '{company_name}', 'Canopy Pte. Ltd.'), body_cn = replace(body_cn, '{company_name}', 'Canopy Pte. Ltd.')`.execute(db);
}
