// The boundary rules of the code base, checked in `npm test` by scripts/check-boundaries.mjs (dependency-cruiser).
// Violations that existed when a rule was introduced are listed in scripts/boundaries-baseline.json; that list may
// only shrink (a new violation fails, and so does a listed one that no longer occurs).
//
// Conventions the rules rely on:
// - A server module is a folder `apps/server/src/modules/<ctx>/`. Other modules reach it only through its
//   `index.ts` (its use cases, read models, events); everything else in the folder is its own business.
//   The composition root (app.ts, jobs.ts, events.ts, bootstrap.ts, main.ts, cli/) and tests may reach further.
// - SQL (`drizzle-orm`, type-only imports aside) is written only in files named `*.repository.ts` (a module's data access) or
//   `*.schema.ts`, or under `apps/server/src/db/` (the client, transactions, the schema). Tests are exempt: they
//   assert on stored rows.
// - No import loops in apps/server, apps/web and bench, type-only imports included (a loop of types is still two
//   files that cannot be understood apart; a loop of values breaks ESM start-up order).
// - A module's code names only its own module's tables (`tableOwnership` below; not a dependency-cruiser rule, as
//   it looks inside files: scripts/check-boundaries.mjs checks it beside them, against the same baseline).

const TESTS = '(/__tests__/|\\.test\\.tsx?$|^apps/server/src/test/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-internals',
      severity: 'error',
      comment:
        'A server module imports another module only through its index.ts (modules/<other>/index.ts). ' +
        'Export what you need from the other module’s index.ts, as a use case, read model or event.',
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        pathNot: ['^apps/server/src/modules/$1/', '^apps/server/src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'sql-outside-repositories',
      severity: 'error',
      comment:
        'drizzle-orm (SQL) is used only in *.repository.ts, *.schema.ts and apps/server/src/db/. ' +
        'Move the query into the module’s repository and call it.',
      from: {
        path: '^apps/server/src/',
        pathNot: [TESTS, '\\.repository\\.ts$', '\\.schema\\.ts$', '^apps/server/src/db/'],
      },
      // A type-only import (`import type { SQL }`) runs no query: allowed anywhere.
      to: { path: '^drizzle-orm(/|$)|(^|/)node_modules/drizzle-orm/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-import-loops',
      severity: 'error',
      comment: 'Import loop: two files that import each other (directly or around a ring). Break it.',
      from: { path: '^(apps/server/src|apps/web/src|bench/src)/', pathNot: TESTS },
      to: { circular: true },
    },
  ],
  // Rule `repository-foreign-table`: a file of module X (tests aside) names a table of module Y — a value import of
  // Y's table object from db/schema, or Y's table name after from / join / update / into in a SQL string. A table
  // belongs to the module its schema file is named after (db/schema/<module>.ts), unless `owners` says otherwise;
  // `platform` is the shared infrastructure (src/platform), whose tables modules reach through its helpers.
  // Type-only imports (`import type { products }`, for `$inferSelect`) name no table at run time: allowed.
  tableOwnership: {
    name: 'repository-foreign-table',
    comment:
      'A module’s repository names only its own tables. Read another module’s rows through a read model exported ' +
      'from its index.ts (or join its read model’s query there); write them through its use cases.',
    schema: 'apps/server/src/db/schema',
    modules: 'apps/server/src/modules',
    owners: {
      label_sheets: 'labels',
      login_attempts: 'auth',
      refresh_tokens: 'auth',
      stores: 'store',
      store_members: 'store',
      rate_limits: 'platform',
    },
  },
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|migrations)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    cache: false,
    progress: { type: 'none' },
  },
};
