// `npm start`: build the web app when it is missing or older than its sources, then run the server
// (migrations and demo seed happen at server start-up). API and web are served on one port. The server prints the URL
// and the demo logins last, once it listens; request logs stay quiet unless LOG_LEVEL=info (see README).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'apps/web');
const stamp = path.join(web, 'dist/build.json');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const sources = [path.join(web, 'src'), path.join(web, 'index.html'), path.join(root, 'packages/contracts/src')];
const srcTime = Math.max(...sources.map((s) => (statSync(s).isDirectory() ? newestMtime(s) : statSync(s).mtimeMs)));
if (!existsSync(stamp) || statSync(stamp).mtimeMs < srcTime) {
  // One line for the build: its ~400 lines of chunk sizes would push the URL and logins off the screen. The output
  // is shown only when the build fails.
  process.stdout.write('Building the web app… ');
  const started = Date.now();
  const r = spawnSync('npm', ['run', '-s', 'build', '-w', 'apps/web'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    console.log('failed:');
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    process.exit(r.status ?? 1);
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const server = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
