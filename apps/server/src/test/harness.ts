import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLoginResponse } from '@wms/contracts';
import { createRouteClient, type TRouteClient } from '@wms/contracts/client';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app';
import { createDeps } from '../bootstrap';
import { loadConfig, type TConfig } from '../config';
import { openDatabase, type TDatabase } from '../db/client';
import * as accountRepo from '../modules/account/account.repository';
import { hashPassword } from '../platform/crypto';
import type { TAppDeps } from '../platform/deps';
import { pgliteFromTemplate, postgresTemplate } from './template';

export const TEST_ENGINE: 'pglite' | 'postgres' = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * The test run's pgbouncer (`TEST_PGBOUNCER_URL`, in front of TEST_DATABASE_URL's server: scripts/test.mjs) or
 * undefined when the run goes to PostgreSQL directly.
 */
export const TEST_PGBOUNCER_URL: string | undefined = process.env.TEST_PGBOUNCER_URL || undefined;

/**
 * A new database on the PostgreSQL server of `serverUrl` (TEST_DATABASE_URL) — empty, or a copy of `template` — its URL,
 * and `drop()`. For tests that hand the URL to another process (a server they start and kill); createTestContext uses
 * it too, with the run's migrated template.
 */
export async function createScratchDatabase(
  serverUrl: string,
  opts: { template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wms_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${opts.template ? ` template ${opts.template}` : ''}`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      // pgbouncer keeps its server connections to the database open after the app closed: closed first (admin console).
      if (TEST_PGBOUNCER_URL) await killPgbouncerDatabase(TEST_PGBOUNCER_URL, name);
      // pool.end() resolves before its clients' sockets are closed; a forced drop at that moment would
      // terminate them (57P01) under the feet of the closing clients. Wait for them to leave, force only last.
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      try {
        for (let attempt = 0; ; attempt++) {
          const { rows } = await a.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0].n === 0 || attempt >= 50) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await a.query(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

/**
 * A fresh, migrated database for one test file, copied from the run's template (test/template.ts): in-memory PGlite
 * loaded from the template's dump, or a new database on TEST_DATABASE_URL's server made from the template database.
 */
async function freshDatabase(): Promise<{ database: TDatabase; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ pglite: await pgliteFromTemplate() });
    return { database, drop: async () => {} };
  }
  const scratch = await createScratchDatabase(url, { template: await postgresTemplate(url) });
  const database = await openDatabase({ ...appDatabaseUrls(scratch.url), poolSize: 20 });
  return { database, drop: scratch.drop };
}

/**
 * How the app reaches a scratch database of this run: directly, or — when the run goes through pgbouncer
 * (TEST_PGBOUNCER_URL) — through pgbouncer, with its session state (advisory locks, LISTEN) on the database itself,
 * as DATABASE_URL and DATABASE_DIRECT_URL would send them.
 */
export function appDatabaseUrls(databaseUrl: string): { databaseUrl: string; directUrl?: string } {
  if (!TEST_PGBOUNCER_URL) return { databaseUrl };
  return { databaseUrl: throughPgbouncer(databaseUrl, TEST_PGBOUNCER_URL), directUrl: databaseUrl };
}

/** `databaseUrl` (a database of TEST_DATABASE_URL's server) reached through the pgbouncer at `bouncerUrl`. */
export function throughPgbouncer(databaseUrl: string, bouncerUrl: string): string {
  const u = new URL(databaseUrl);
  const b = new URL(bouncerUrl);
  u.hostname = b.hostname;
  u.port = b.port;
  return u.toString();
}

/** Close pgbouncer's client and server connections of database `name` (admin console `KILL`). */
export async function killPgbouncerDatabase(bouncerUrl: string, name: string): Promise<void> {
  const u = new URL(bouncerUrl);
  u.pathname = '/pgbouncer';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    await admin.query(`KILL ${name}`).catch(() => undefined);
  } finally {
    await admin.end();
  }
}

/** Decode RFC 2047 encoded words (`=?UTF-8?B?…?=` / `?Q?`) in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/**
 * The typed route client sending through `app.inject` (no socket, same router, same hooks); `remoteAddress`: the
 * peer the requests come from (light-my-request's default 127.0.0.1), for tests of what the server trusts of whom.
 */
export function injectClient(app: FastifyInstance, opts: { remoteAddress?: string } = {}): TRouteClient<Buffer> {
  return createRouteClient<Buffer>(async (req) => {
    const res = await app.inject({
      method: req.method,
      url: req.url,
      query: req.query,
      headers: req.headers,
      ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
      ...(req.body === undefined ? {} : { payload: req.body as InjectOptions['payload'] }),
    });
    return { statusCode: res.statusCode, headers: res.headers, rawPayload: res.rawPayload };
  });
}

/**
 * The answer of a login that logged in (`status: 'login'`: tokens and role), typed as that branch; a test failure
 * when the login answered anything else (an error, or the OTP step).
 */
export function loggedIn(res: { statusCode: number; body: string; json(): TLoginResponse }) {
  const body = res.json();
  if (res.statusCode !== 200 || body.status !== 'login')
    throw new Error(`not logged in: ${res.statusCode} ${res.body}`);
  return body;
}

export interface TTestContext {
  app: FastifyInstance;
  deps: TAppDeps;
  config: TConfig;
  dataDir: string;
  engine: 'pglite' | 'postgres';
  inject(opts: InjectOptions & { token?: string; lang?: string }): Promise<LightMyRequestResponse>;
  /** The typed client of the route tables over `app.inject`: `ctx.api.inboundRoutes.confirmReceipt({ params, token })`. */
  api: TRouteClient<Buffer>;
  /** Mails written to the outbox since the start, parsed into to/subject/text. */
  outbox(): Array<{ to: string; subject: string; text: string; file: string }>;
  /** Wait (up to 10 s) until the outbox holds at least `count` mails (mail is sent by a job after the request). */
  waitForOutbox(count: number): Promise<Array<{ to: string; subject: string; text: string; file: string }>>;
  newCustomer(opts?: {
    name?: string;
    password?: string;
  }): Promise<{ customerId: string; userId: string; email: string; password: string; token: string }>;
  newEmployee(opts?: {
    password?: string;
  }): Promise<{ userId: string; email: string; password: string; token: string }>;
  login(email: string, password: string): Promise<{ access: string; refresh: string }>;
  close(): Promise<void>;
}

const fixtureHashes = new Map<string, Promise<string>>();
/**
 * The password hash of an account a test makes for itself (newCustomer, newEmployee, the world's store member): the
 * app's scrypt format at N = 1024 instead of 16384, made once per password per file. Signing in with it runs the app's
 * real verification (the cost is read from the hash); accounts made through the API (sign-up, users, password change)
 * get the app's own cost as always. About 2 × 50 ms of CPU less per account on this machine.
 */
export function fixturePasswordHash(password: string): Promise<string> {
  const known = fixtureHashes.get(password);
  if (known) return known;
  const hash = hashPassword(password, { N: 1024 });
  fixtureHashes.set(password, hash);
  return hash;
}

/**
 * Build the app on a fresh database with its own DATA_DIR (mail outbox, keys). Call `close()` in afterAll.
 * `jobs: false` for a file that never waits on background work (no mail, import, outbox delivery, schedule): its job
 * workers, schedules and wake-ups are not started (a job queued there stays queued).
 */
export async function createTestContext(
  env: Record<string, string> = {},
  opts: {
    jobs?: boolean;
    /** This database (migrated; closed by close()) instead of a fresh copy of the run's template. */
    database?: TDatabase;
  } = {},
): Promise<TTestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wms-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    APP_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://wms.test',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Every request of a test comes from one address: the per-address budgets are tested on their own.
    AUTH_IP_LIMIT_PER_MINUTE: '1000000',
    CALLBACK_IP_LIMIT_PER_MINUTE: '1000000',
    SIGNUP_IP_LIMIT_PER_HOUR: '1000000',
    MAIL_ADDRESS_LIMIT_PER_HOUR: '1000',
    // The tests' label printers are local TCP servers on 127.0.0.1.
    LABEL_PRINTER_ALLOW_LOOPBACK: '1',
    ...env,
  });
  const { database, drop } = opts.database ? { database: opts.database, drop: async () => {} } : await freshDatabase();
  const silent = { info: () => {} };
  const deps = await createDeps(config, silent, { database });
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  if (opts.jobs !== false) await deps.jobs.start();

  const ctx: TTestContext = {
    app,
    api: injectClient(app),
    deps,
    config,
    dataDir,
    engine: database.engine,
    inject(opts) {
      const { token, lang, ...rest } = opts;
      const headers = { ...(rest.headers ?? {}) } as Record<string, string>;
      if (token) headers.authorization = `Bearer ${token}`;
      if (lang) headers['accept-language'] = lang;
      return app.inject({ ...rest, headers });
    },
    outbox() {
      const dir = path.join(dataDir, 'outbox');
      let files: string[] = [];
      try {
        files = readdirSync(dir).sort();
      } catch {
        return [];
      }
      return files.map((f) => {
        const raw = readFileSync(path.join(dir, f), 'utf8');
        const [head = '', ...body] = raw.split('\n\n');
        const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
        let text = body.join('\n\n');
        if (/content-transfer-encoding: quoted-printable/i.test(head)) {
          text = Buffer.from(
            text
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            'latin1',
          ).toString('utf8');
        } else if (/content-transfer-encoding: base64/i.test(head)) {
          text = Buffer.from(text.replace(/\s/g, ''), 'base64').toString('utf8');
        }
        return { to: header('To'), subject: decodeWords(header('Subject')), text, file: f };
      });
    },
    async waitForOutbox(count) {
      const deadline = Date.now() + 10_000;
      while (ctx.outbox().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return ctx.outbox();
    },
    async login(email, password) {
      const res = await app.inject({ method: 'POST', url: '/api/login/', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      const body = res.json() as { access: string; refresh: string };
      return { access: body.access, refresh: body.refresh };
    },
    async newCustomer(opts = {}) {
      const password = opts.password ?? 'secret-pass-1';
      const email = `seller-${randomUUID().slice(0, 8)}@test.local`;
      const customer = await accountRepo.insertCustomer(deps.database.db, { name: opts.name ?? `Seller ${email}` });
      const user = await accountRepo.insertUser(deps.database.db, {
        customer_id: customer.id,
        email,
        name: 'Seller user',
        role: 'CUSTOMER',
        password_hash: await fixturePasswordHash(password),
      });
      const { access } = await ctx.login(email, password);
      return { customerId: customer.id, userId: user.id, email, password, token: access };
    },
    async newEmployee(opts = {}) {
      const password = opts.password ?? 'secret-pass-1';
      const email = `staff-${randomUUID().slice(0, 8)}@test.local`;
      const user = await accountRepo.insertUser(deps.database.db, {
        email,
        name: 'Staff',
        role: 'EMPLOYEE',
        password_hash: await fixturePasswordHash(password),
      });
      const { access } = await ctx.login(email, password);
      return { userId: user.id, email, password, token: access };
    },
    async close() {
      await deps.jobs.stop();
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return ctx;
}
