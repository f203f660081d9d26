import { readFileSync, writeFileSync } from 'node:fs';
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
  // Generated demo passwords are kept (mode 600) in DATA_DIR so every start can print them again.
  const loginsFile = path.join(config.dataDir, 'demo-logins.json');
  let logins = seed.logins;
  if (seed.seeded) {
    writeFileSync(loginsFile, JSON.stringify(seed.logins), { mode: 0o600 });
  } else {
    try {
      logins = JSON.parse(readFileSync(loginsFile, 'utf8')) as typeof logins;
    } catch {
      logins = [];
    }
  }
  if (logins.length > 0) {
    lines.push('  Demo logins (initial passwords; set DEMO_*_PASSWORD to choose them):');
    for (const l of logins) lines.push(`    ${l.role.padEnd(8)} ${l.email}  ${l.password ?? '(password from env)'}`);
  } else {
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
