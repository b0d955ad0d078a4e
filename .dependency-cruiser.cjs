// Import direction for Canopy (docs/decisions/0011-layout.md). Run by `npm run lint` (after eslint):
//   depcruise src tests bench
// Every rule is an error, so CI fails on the first violation. Type-only imports count too
// (tsPreCompilationDeps): a circle through `import type` is still a circle a reader has to untangle.

/** Which server module folders (src/server/modules/<x>/) may import which others, and why. A folder not
 *  named here imports no other module folder. registry/ and webhook/ import none, project/ only registry/, user/
 *  only webhook/, so no two modules import each other: what two modules share goes to the lower one (here
 *  user/) or below the modules. webhook/outbox.ts is the lowest: every effect writes its event in its own
 *  transaction. */
const MODULE_IMPORTS = {
  auth: ['user', 'org'], // sign-in counts wrong passwords the way the payment password does (user/attempts.ts); a corporate registration founds its organisation
  passkey: ['user', 'auth'], // adding one re-checks the login password; a passkey sign-in opens the session a login opens
  order: ['user', 'project', 'registry', 'webhook'], // a write checks the payment password; a buy reads the project it buys and what it holds on its registry; a completed order writes its event
  project: ['registry'], // a project shows the tons it can sell: its supply capped by what it holds on its registry
  receipt: ['retire'], // a retirement's receipt shows its serials and certificate link, its PDF the certificate's type
  retire: ['user', 'order', 'registry', 'webhook'], // a retirement checks the payment password, takes the credit holdings orders keep and the registry units of the project's blocks; it writes its event
  icc: ['retire'], // the cap counts the retirements surrendered for the tax; the evidence pack lists them with their serials
  wallet: ['user', 'webhook'], // a withdrawal checks the payment password and pays out to the bound card; credited top-ups and paid withdrawals write their events
  approval: ['retire', 'wallet', 'user', 'webhook'], // an approval carries the request out through the retirement's or the withdrawal's use case; a decision writes its event
  offset: ['order', 'user', 'project'], // each month's buy is the buy use case's; a plan checks the payment password and reads its project
  user: ['webhook'], // an approval request writes its event
  org: ['offset', 'approval'], // a member's removal or a role without trade pauses the monthly offsets she consented to and cancels her waiting approval requests
  developer: ['user'], // making an API key checks the payment password
  v1: ['developer', 'order', 'retire', 'project', 'user', 'webhook'], // the integrators' API: a request's key, the app's own buy, retirement and project use cases, and the sandbox's webhooks
};

function modulesNotEachOther() {
  const comment =
    'No two server modules import each other: a module folder imports only the module folders MODULE_IMPORTS allows it (registry/ and webhook/ none, project/ only registry/, user/ only webhook/). What both need goes to the lower one or below modules (lib, db, ledger, live).';
  const listed = Object.keys(MODULE_IMPORTS);
  return [
    {
      name: 'modules-not-each-other',
      severity: 'error',
      comment,
      from: { path: '^src/server/modules/([^/]+)/', pathNot: `^src/server/modules/(${listed.join('|')})/` },
      to: { path: '^src/server/modules/[^/]+/', pathNot: '^src/server/modules/$1/' },
    },
    ...Object.entries(MODULE_IMPORTS).map(([from, allowed]) => ({
      name: 'modules-not-each-other',
      severity: 'error',
      comment,
      from: { path: `^src/server/modules/${from}/` },
      to: { path: '^src/server/modules/[^/]+/', pathNot: `^src/server/modules/(${[from, ...allowed].join('|')})/` },
    })),
  ];
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles, type-only imports included. Move the shared part to a leaf module (e.g. server/env.ts).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'feature-isolation',
      severity: 'error',
      comment:
        'A feature imports only components/, lib/, src/shared and itself. What two features share belongs in components/ (UI) or lib/ (logic); routes compose features.',
      from: { path: '^src/app/features/([^/]+)/' },
      to: { path: '^src/app/', pathNot: ['^src/app/features/$1/', '^src/app/(components|lib|styles)/'] },
    },
    {
      name: 'kit-below-features',
      severity: 'error',
      comment: 'components/ and lib/ are the kit the features build on: they never import a feature or a route.',
      from: { path: '^src/app/(components|lib)/' },
      to: { path: '^src/app/(features|routes)/' },
    },
    {
      name: 'app-not-server',
      severity: 'error',
      comment: 'The PWA never imports server code (both may import src/shared).',
      from: { path: '^src/app/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-not-app',
      severity: 'error',
      comment: 'The server never imports app code (both may import src/shared).',
      from: { path: '^src/server/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'shared-imports-neither',
      severity: 'error',
      comment: 'src/shared runs in browser and Node: it imports neither app nor server.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(app|server)/' },
    },
    {
      name: 'server-modules-not-upward',
      severity: 'error',
      comment:
        'Server parts below app.ts (modules, lib, db, ledger, live, scheduler) take their context type from server/env.ts and hand their routes and OpenAPI entries up; they never import app.ts or openapi.ts.',
      from: { path: '^src/server/(modules|lib|db|ledger|live|scheduler)/' },
      to: { path: '^src/server/(app|openapi|server|main)\\.ts$' },
    },
    ...modulesNotEachOther(),
    {
      name: 'lower-layers-not-modules',
      severity: 'error',
      comment:
        'lib, db (migrations included), ledger and live sit below the modules: they never import one. What they need from a module (the session lookup of the live hub) is handed in by server.ts, which composes both.',
      from: { path: '^src/server/(lib|db|ledger|live)/' },
      to: { path: '^src/server/modules/' },
    },
    {
      name: 'migrations-frozen',
      severity: 'error',
      comment:
        'A migration stays as it ran: it imports kysely, node:*, other migrations and the database vocabulary they are written in (db/dialect.ts, db/connection.ts for dialectOf and the DB type), never code that changes with the product (modules, ledger, live, lib, shared). Copy what it needs into the migration (docs/decisions/0022-module-shape.md).',
      from: {
        path: '^src/server/db/migrations/',
      },
      to: { path: '^src/', pathNot: ['^src/server/db/migrations/', '^src/server/db/dialect\\.ts$', '^src/server/db/connection\\.ts$'] },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports and that imports nothing is dead code (or a config that should be listed here).',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)\\.[^/]+\\.(c|m)?js$', // dot files (this config)
          '\\.d\\.ts$',
          '(^|/)tsconfig\\.json$',
          '^src/app/route-tree\\.gen\\.ts$',
          '^tests/setup/', // vitest setupFiles: loaded by the runner, not imported
        ],
      },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: {},
      to: { couldNotResolve: true, pathNot: '^virtual:' }, // virtual: modules come from vite plugins
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|dev-dist|node_modules|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
