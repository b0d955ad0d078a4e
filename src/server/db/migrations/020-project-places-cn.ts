import { sql, type Kysely } from 'kysely';

// Projects gain `location_cn` and `country_cn`, the place and country in Chinese, so the Chinese app names
// them in Chinese and a search in either language finds the project (docs/product.md#projects). Rows
// seeded before carry only the English place: the seeded places and countries get their Chinese here;
// any other row keeps '' and reads in English until an operator fills it.
const PLACES: Record<string, string> = {
  'Central Kalimantan, Indonesia': '印度尼西亚中加里曼丹省',
  'Ca Mau, Vietnam': '越南金瓯省',
  'Koh Kong, Cambodia': '柬埔寨戈公省',
  'Sabah, Malaysia': '马来西亚沙巴州',
  'Tarlac, Philippines': '菲律宾打拉省',
  'Odisha, India': '印度奥里萨邦',
  'Savannakhet, Laos': '老挝沙湾拿吉省',
  'Nakhon Ratchasima, Thailand': '泰国呵叻府',
  'Palawan, Philippines': '菲律宾巴拉望省',
  'Tamil Nadu, India': '印度泰米尔纳德邦',
  'Riau, Indonesia': '印度尼西亚廖内省',
  'Gujarat, India': '印度古吉拉特邦',
  'Bukidnon, Philippines': '菲律宾布基农省',
  'Sarawak, Malaysia': '马来西亚砂拉越州',
  'Dak Lak, Vietnam': '越南多乐省',
  'Viti Levu, Fiji': '斐济维提岛',
};
const COUNTRIES: Record<string, string> = {
  Indonesia: '印度尼西亚',
  Vietnam: '越南',
  Cambodia: '柬埔寨',
  Malaysia: '马来西亚',
  Philippines: '菲律宾',
  India: '印度',
  Laos: '老挝',
  Thailand: '泰国',
  Fiji: '斐济',
  Singapore: '新加坡',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('location_cn', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('projects').addColumn('country_cn', 'text', (c) => c.notNull().defaultTo('')).execute();
  for (const [en, cn] of Object.entries(PLACES)) {
    await sql`update projects set location_cn = ${cn} where location = ${en} and location_cn = ''`.execute(db);
  }
  for (const [en, cn] of Object.entries(COUNTRIES)) {
    await sql`update projects set country_cn = ${cn} where country = ${en} and country_cn = ''`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('country_cn').execute();
  await db.schema.alterTable('projects').dropColumn('location_cn').execute();
}
