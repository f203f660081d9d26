import path from 'node:path';
import { buildApp } from './app';
import { createDeps } from './bootstrap';
import { loadConfig } from './config';
import { seedDemoData } from './modules/seed/seed.service';

async function main(): Promise<void> {
  const config = loadConfig();
  const boot = {
    info: (obj: object, msg: string) => console.log(msg, JSON.stringify(obj)),
    error: (obj: object, msg: string) => console.error(msg, obj),
  };
  const deps = await createDeps(config, boot);
  const seed = await seedDemoData(deps.database.db, config);
  const app = await buildApp(deps);
  await deps.jobs.start();
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${(app.server.address() as { port: number }).port}`;
  const lines = [
    '',
    `  WMS is running on ${url}  (database: ${deps.database.engine}${deps.database.engine === 'pglite' ? `, ${config.dataDir}` : ''})`,
  ];
  // Generated passwords are printed once, by the start that created the accounts; later starts name the logins only.
  if (seed.seeded && seed.logins.length > 0) {
    lines.push('  Logins created now (initial passwords, shown this once; set DEMO_*_PASSWORD to choose them):');
    for (const l of seed.logins)
      lines.push(`    ${l.role.padEnd(8)} ${l.email}  ${l.password ?? '(password from env)'}`);
  } else if (config.seedDemo) {
    lines.push(`  Demo logins: ${config.demo.customerEmail} (CUSTOMER), ${config.demo.employeeEmail} (EMPLOYEE)`);
  }
  lines.push(
    `  Your own account: ${url}/register${config.smtpUrl ? '' : `  (no SMTP_URL: the mail lands in ${path.join(config.dataDir, 'outbox')})`}`,
    '',
  );
  // Last, so the URL and the logins stay on screen while the server waits.
  console.log(lines.join('\n'));
  const stop = async () => {
    await app.close();
    await deps.jobs.stop();
    await deps.database.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
