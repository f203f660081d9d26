import { rmSync } from 'node:fs';
import { makePgliteTemplate, makePostgresTemplate, PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV } from './template';

/**
 * vitest globalSetup of the server project: the migrated template database of this run's engine, made once before
 * any test file starts (each file copies it: test/template.ts), removed after the run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const t0 = performance.now();
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const made = await makePostgresTemplate(url);
    process.env[PG_TEMPLATE_ENV] = made.name;
    console.log(`server tests: PostgreSQL template ${made.name} in ${Math.round(performance.now() - t0)} ms`);
    return async () => {
      await made.drop();
    };
  }
  const file = await makePgliteTemplate();
  process.env[PGLITE_TEMPLATE_ENV] = file;
  console.log(`server tests: PGlite template in ${Math.round(performance.now() - t0)} ms`);
  return async () => {
    rmSync(file, { force: true });
  };
}
