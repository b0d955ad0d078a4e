import { sql, type Kysely } from 'kysely';

// Home's fourth banner, "Calculate your carbon footprint", linked to /pages/index/start before the
// footprint screens existed; the seed data links it to the questionnaire now (seed-data/banners/04.json),
// but the seed only fills an empty table, so a database seeded before kept the old link. Moved here, only
// where it is still the old seeded one (an operator's own banner or link is left alone).
const TITLE = 'Calculate your carbon footprint';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update banners set link = ${'/pages/profile/footprint'} where link = ${'/pages/index/start'} and title = ${TITLE}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update banners set link = ${'/pages/index/start'} where link = ${'/pages/profile/footprint'} and title = ${TITLE}`.execute(db);
}
