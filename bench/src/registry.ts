import os from 'node:os';
import type { TDatabase } from '../../apps/server/src/db/client';
import type { TSellerData } from './generate';
import type { TLoadResult } from './load';

/**
 * What the benches share: the report the figures go into and the lists other bench files register their steps in.
 * main.ts runs them; steps.ts and the bench files register here (not in main.ts, so no file imports main back).
 */

export interface TReport {
  when: string;
  machine: { cpus: number; model: string; memory_gb: number; node: string; platform: string };
  scale: string;
  rows: Record<string, number>;
  figures: Array<{ group: string; name: string; value: number | string; unit: string; note?: string }>;
  load: TLoadResult[];
}

export const report: TReport = {
  when: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  },
  scale: 'default',
  rows: {},
  figures: [],
  load: [],
};
export const figure = (group: string, name: string, value: number | string, unit: string, note?: string) =>
  report.figures.push({ group, name, value, unit, ...(note ? { note } : {}) });

/** More API load runs registered by other benches (e.g. scan-to-pack). */
export const API_EXTRA: Array<
  (
    engine: string,
    url: string,
    token: string,
    seller: TSellerData,
    database: TDatabase | null,
    report: TReport,
  ) => Promise<void>
> = [];

/** Benches that need the PostgreSQL data set (allocation, import, …); registered in steps.ts. */
export const STEPS: Array<{
  name: string;
  run: (ctx: {
    database: TDatabase;
    url: string;
    sellers: TSellerData[];
    quick: boolean;
    /** The server process (tsx; the app runs in it or its child), for memory figures. */
    serverPid?: number;
  }) => Promise<void>;
}> = [];

/** Environment a step needs on the bench server (e.g. a fake outside system's URL and keys), started before it. */
export const SERVER_ENV: Array<{ step: string; env: () => Promise<Record<string, string>> }> = [];

/** Things to stop when the bench ends (fake outside systems started for the server). */
export const CLEANUP: Array<() => Promise<void> | void> = [];
