import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const boolish = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /**
   * PostgreSQL itself when DATABASE_URL is a pooler in transaction mode (pgbouncer): migrations, session advisory
   * locks and LISTEN go here (docs/ARCHITECTURE.md, "pgbouncer and replicas"). Unset: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  /** A streaming replica of DATABASE_URL's database: the read-heavy calls read there when it has caught up. */
  DATABASE_REPLICA_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  APP_SECRET_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'APP_SECRET_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('WMS <no-reply@wms.local>'),
  PUBLIC_URL: z.string().url().optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(14 * 24 * 3600),
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  /** Login, OTP and member-login attempts per client address per minute (all three together). */
  AUTH_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  CALLBACK_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Registrations and password-reset requests per client address per hour (together). */
  SIGNUP_IP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /** Registration and reset mails to one address per hour. */
  MAIL_ADDRESS_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(3),
  /**
   * Which peers may set X-Forwarded-For: `false` (none), `loopback` (a proxy on this host; the default), a hop
   * count, or a comma-separated list of addresses/CIDRs (`10.0.0.0/8,uniquelocal`). `true` trusts anyone: avoid it.
   */
  TRUST_PROXY: z.string().default('loopback'),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** SIGTERM/SIGINT: how long in-flight requests and running jobs get to finish before the process exits anyway. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(10),
  JOB_STALE_SECONDS: z.coerce.number().min(1).default(60),
  JOB_CRON_CHECK_SECONDS: z.coerce.number().int().min(1).max(60).default(10),
  JOB_RETRY_DELAY_SCALE: z.coerce.number().gt(0).max(1).default(1),
  /** Testing only: /database-clean's retention periods are multiplied by this (e2e: 0, so "older than" is "now"). */
  RETENTION_AGE_SCALE: z.coerce.number().min(0).max(1).default(1),
  /** Testing only: staff may issue a usage statement of the month still running (e2e: 1; its work is done today). */
  USAGE_ISSUE_OPEN_MONTH: z.enum(['0', '1']).default('0'),
  /**
   * The CJK font the statement PDF embeds to print Chinese and Japanese (seller names, line names): a TrueType (glyf)
   * font — Debian's fonts-droid-fallback by default, installed by the Dockerfile. Only the glyphs drawn are embedded
   * (a PDF of a few KB; usage.documents.ts mends @pdf-lib/fontkit's TrueType subsets, which drew most glyphs blank);
   * its subsets of CFF-based fonts such as Noto Sans CJK are invalid files. Latin text is drawn in Helvetica. Missing file: the PDF is in English and prints what Helvetica cannot draw as '?'.
   */
  USAGE_PDF_FONT: z.string().default('/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'),
  /** The face to use when USAGE_PDF_FONT is a collection (.ttc). */
  USAGE_PDF_FONT_FACE: z.string().default(''),
  OUTGOING_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /** Label printers (raw TCP) outside the private/link-local ranges: host names, addresses or CIDRs, comma-separated. */
  LABEL_PRINTER_ALLOWED_HOSTS: z.string().default(''),
  /** Testing only: a label printer may be on the server itself (127/8, ::1). */
  LABEL_PRINTER_ALLOW_LOOPBACK: z.enum(['0', '1']).default('0'),
  /** Shopee Open Platform v2: the operator's partner id and key (empty: the Shopee module says "not configured"). */
  SHOPEE_PARTNER_ID: z.coerce.number().int().min(1).optional(),
  SHOPEE_PARTNER_KEY: z.string().min(8).optional(),
  /** Sandbox by default; live: https://partner.shopeemobile.com. */
  SHOPEE_BASE_URL: z.string().url().default('https://partner.test-stable.shopeemobile.com'),
  /** The push URL registered with Shopee (default: PUBLIC_URL + /api/shopee/push/); part of the push signature. */
  SHOPEE_PUSH_URL: z.string().url().optional(),
  /** ECPay logistics host (stage by default; live: https://logistics.ecpay.com.tw). */
  ECPAY_LOGISTICS_URL: z.string().url().default('https://logistics-stage.ecpay.com.tw'),
  /** T-cat Egs API base (…/api/Egs; the carrier's test host by default; live: https://api.suda.com.tw/api/Egs). */
  TCAT_EGS_URL: z.string().url().default('https://egs.suda.com.tw:8443/api/Egs'),
  SEED_DEMO: boolish.default(true),
  /** TapPay (billing): sandbox by default; partner key and merchant id server-side, app id/key for the card form. */
  TAPPAY_BASE_URL: z.string().url().default('https://sandbox.tappaysdk.com'),
  TAPPAY_PARTNER_KEY: z.string().min(8).optional(),
  TAPPAY_MERCHANT_ID: z.string().min(1).optional(),
  TAPPAY_APP_ID: z.coerce.number().int().min(1).optional(),
  TAPPAY_APP_KEY: z.string().min(8).optional(),
  /** Ask for 3-D Secure (the card holder confirms at the bank's page: TapPay answers payment_url). */
  TAPPAY_3DS: z.enum(['0', '1']).default('1'),
  /** NewebPay MPG (billing): sandbox host by default. */
  NEWEBPAY_BASE_URL: z.string().url().default('https://ccore.newebpay.com'),
  NEWEBPAY_MERCHANT_ID: z.string().min(1).optional(),
  NEWEBPAY_HASH_KEY: z.string().length(32).optional(),
  NEWEBPAY_HASH_IV: z.string().length(16).optional(),
  /** MPG Version: 2.3 as NewebPay's current MPG manual (NDNF-1.1.9) says. */
  NEWEBPAY_VERSION: z.string().default('2.3'),
  DEMO_CUSTOMER_EMAIL: z.string().email().default('demo@wms.local'),
  DEMO_CUSTOMER_PASSWORD: z.string().min(7).optional(),
  DEMO_EMPLOYEE_EMAIL: z.string().email().default('staff@wms.local'),
  DEMO_EMPLOYEE_PASSWORD: z.string().min(7).optional(),
  WEB_DIST: z.string().optional(),
  /** Unset: `info` in production, `warn` otherwise (no line per request on a developer's or a trial set-up). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** Unset: JSON lines in production (for a log collector), one readable line per entry otherwise. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  NODE_ENV: z.string().optional(),
});

export interface TConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL itself when databaseUrl is a transaction pooler (DATABASE_DIRECT_URL). */
  databaseDirectUrl?: string;
  /** A streaming replica (DATABASE_REPLICA_URL). */
  databaseReplicaUrl?: string;
  jwtSecret: Uint8Array;
  encryptionKey: Buffer;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  accessTtl: number;
  refreshTtl: number;
  /** A rotated refresh token presented again this soon after its rotation is a lost answer, not a theft. */
  refreshReuseGrace: number;
  loginMaxFailures: number;
  loginLockMinutes: number;
  authIpLimitPerMinute: number;
  callbackIpLimitPerMinute: number;
  signupIpLimitPerHour: number;
  mailAddressLimitPerHour: number;
  /** Fastify's `trustProxy`: who may name the client's address in X-Forwarded-For. */
  trustProxy: boolean | number | string[];
  bodyLimit: number;
  /** SIGTERM/SIGINT: time for in-flight requests and running jobs to finish (ms). */
  shutdownTimeoutMs: number;
  /** A running job whose heartbeat stopped this long ago lost its process (PostgreSQL; PGlite recovers at start). */
  jobStaleMs: number;
  jobCronCheckSeconds: number;
  /** Factor on every job's retry delay (1 in production; a test set-up shortens back-offs, e.g. 0.02). */
  jobRetryDelayScale: number;
  retentionAgeScale: number;
  usageIssueOpenMonth: boolean;
  usagePdfFont: { path: string; face: string };
  /** Operator setting: user-entered URLs (partners' callbacks) may reach private/loopback addresses. */
  outgoingAllowPrivate: boolean;
  /** Where a warehouse's label printer may be (platform/printer-hosts.ts). */
  labelPrinterHosts: { allowLoopback: boolean; allowed: string[] };
  /** Shopee partner settings (operator's); `partnerId`/`partnerKey` null when not configured. */
  shopee: { partnerId: number | null; partnerKey: string | null; baseUrl: string; pushUrl: string };
  /** ECPay logistics host (Express/Create). */
  ecpayLogisticsUrl: string;
  /** T-cat Egs API base (PrintOBT, DownloadOBT, ParsingAddress). */
  tcatEgsUrl: string;
  tappay: {
    baseUrl: string;
    partnerKey: string | null;
    merchantId: string | null;
    appId: number | null;
    appKey: string | null;
    threeDomainSecure: boolean;
    environment: 'sandbox' | 'production';
  };
  newebpay: {
    baseUrl: string;
    merchantId: string | null;
    hashKey: string | null;
    hashIv: string | null;
    version: string;
  };
  seedDemo: boolean;
  demo: { customerEmail: string; customerPassword?: string; employeeEmail: string; employeePassword?: string };
  webDist: string;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  version: string;
}

/** Secrets that are not given by env are generated once and kept in DATA_DIR/keys.json (mode 600). */
function loadOrCreateKeys(dataDir: string): { jwt: string; enc: string } {
  const file = path.join(dataDir, 'keys.json');
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { jwt?: string; enc?: string };
    if (parsed.jwt && parsed.enc) return { jwt: parsed.jwt, enc: parsed.enc };
  } catch {
    // first start: fall through and create the file
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = { jwt: randomBytes(48).toString('hex'), enc: randomBytes(32).toString('hex') };
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

function parseTrustProxy(value: string): boolean | number | string[] {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === '0' || v === 'no' || v === '') return false;
  if (v === 'true' || v === 'yes') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const APP_VERSION = '0.1.0';

/**
 * Read env into a typed config; fails fast with the offending variable named. `secrets: 'unused'` is for a tool that
 * signs and decrypts nothing (`check:stock`, a read-only check): it needs neither JWT_SECRET nor APP_SECRET_KEY and
 * writes no keys.json — the config's secrets are then random ones of this process, which nothing else can read.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<TConfig> = {},
  opts: { secrets?: 'required' | 'unused' } = {},
): TConfig {
  // An empty variable (`DATABASE_URL=`) means "not set", as in most twelve-factor apps.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // On PostgreSQL several processes (and hosts) share one database: each would generate keys of its own in its
  // DATA_DIR, and a token or an encrypted secret written by one would be unreadable to the others.
  const secretsUnused = opts.secrets === 'unused';
  if (e.DATABASE_URL && (!e.JWT_SECRET || !e.APP_SECRET_KEY) && !secretsUnused) {
    const missing = [!e.JWT_SECRET && 'JWT_SECRET', !e.APP_SECRET_KEY && 'APP_SECRET_KEY'].filter(Boolean).join(', ');
    throw new Error(
      `Invalid configuration:\n  ${missing}: required with DATABASE_URL (every app process must share the same secrets). ` +
        "Generate them with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"",
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const keys =
    e.JWT_SECRET && e.APP_SECRET_KEY
      ? null
      : secretsUnused
        ? { jwt: randomBytes(48).toString('hex'), enc: randomBytes(32).toString('hex') }
        : loadOrCreateKeys(dataDir);
  const port = e.PORT;
  return {
    port,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_URL ? e.DATABASE_DIRECT_URL : undefined,
    databaseReplicaUrl: e.DATABASE_URL ? e.DATABASE_REPLICA_URL : undefined,
    jwtSecret: new TextEncoder().encode(e.JWT_SECRET ?? keys!.jwt),
    encryptionKey: Buffer.from(e.APP_SECRET_KEY ?? keys!.enc, 'hex'),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${port}`,
    accessTtl: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtl: e.REFRESH_TOKEN_TTL_SECONDS,
    refreshReuseGrace: e.REFRESH_REUSE_GRACE_SECONDS,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginLockMinutes: e.LOGIN_LOCK_MINUTES,
    authIpLimitPerMinute: e.AUTH_IP_LIMIT_PER_MINUTE,
    callbackIpLimitPerMinute: e.CALLBACK_IP_LIMIT_PER_MINUTE,
    signupIpLimitPerHour: e.SIGNUP_IP_LIMIT_PER_HOUR,
    mailAddressLimitPerHour: e.MAIL_ADDRESS_LIMIT_PER_HOUR,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    bodyLimit: e.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    jobStaleMs: e.JOB_STALE_SECONDS * 1000,
    jobCronCheckSeconds: e.JOB_CRON_CHECK_SECONDS,
    jobRetryDelayScale: e.JOB_RETRY_DELAY_SCALE,
    retentionAgeScale: e.RETENTION_AGE_SCALE,
    usageIssueOpenMonth: e.USAGE_ISSUE_OPEN_MONTH === '1',
    usagePdfFont: { path: e.USAGE_PDF_FONT, face: e.USAGE_PDF_FONT_FACE },
    outgoingAllowPrivate: e.OUTGOING_ALLOW_PRIVATE === '1',
    labelPrinterHosts: {
      allowLoopback: e.LABEL_PRINTER_ALLOW_LOOPBACK === '1',
      allowed: e.LABEL_PRINTER_ALLOWED_HOSTS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    },
    shopee: {
      partnerId: e.SHOPEE_PARTNER_ID ?? null,
      partnerKey: e.SHOPEE_PARTNER_KEY ?? null,
      baseUrl: e.SHOPEE_BASE_URL.replace(/\/+$/, ''),
      pushUrl:
        e.SHOPEE_PUSH_URL ?? `${(e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '')}/api/shopee/push/`,
    },
    ecpayLogisticsUrl: e.ECPAY_LOGISTICS_URL.replace(/\/+$/, ''),
    tcatEgsUrl: e.TCAT_EGS_URL.replace(/\/+$/, ''),
    tappay: {
      baseUrl: e.TAPPAY_BASE_URL.replace(/\/+$/, ''),
      partnerKey: e.TAPPAY_PARTNER_KEY ?? null,
      merchantId: e.TAPPAY_MERCHANT_ID ?? null,
      appId: e.TAPPAY_APP_ID ?? null,
      appKey: e.TAPPAY_APP_KEY ?? null,
      threeDomainSecure: e.TAPPAY_3DS === '1',
      environment: e.TAPPAY_BASE_URL.includes('prod.') ? ('production' as const) : ('sandbox' as const),
    },
    newebpay: {
      baseUrl: e.NEWEBPAY_BASE_URL.replace(/\/+$/, ''),
      merchantId: e.NEWEBPAY_MERCHANT_ID ?? null,
      hashKey: e.NEWEBPAY_HASH_KEY ?? null,
      hashIv: e.NEWEBPAY_HASH_IV ?? null,
      version: e.NEWEBPAY_VERSION,
    },
    seedDemo: e.SEED_DEMO,
    demo: {
      customerEmail: e.DEMO_CUSTOMER_EMAIL,
      customerPassword: e.DEMO_CUSTOMER_PASSWORD,
      employeeEmail: e.DEMO_EMPLOYEE_EMAIL,
      employeePassword: e.DEMO_EMPLOYEE_PASSWORD,
    },
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'production' ? 'info' : 'warn'),
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'production' ? 'json' : 'pretty'),
    version: APP_VERSION,
    ...overrides,
  };
}
