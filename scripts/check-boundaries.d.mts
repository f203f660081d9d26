export const ROOTS: string[];
export function violationKey(v: { rule: { name: string }; from: string; to: string; cycle?: unknown[] }): string;
export function checkBoundaries(opts?: {
  cwd?: string;
  roots?: string[];
  config?: string;
  baseline?: string;
}): Promise<{
  found: string[];
  known: string[];
  /** Violations not in the baseline. */
  added: string[];
  /** Baseline entries that no longer occur. */
  gone: string[];
  comments: Map<string, string>;
  modules: number;
}>;
