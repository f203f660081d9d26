export function findPgBin(): string | null;
export function startCluster(): Promise<{
  url: string;
  dir: string;
  /** End the cluster and remove its files. */
  stop(): void;
  /** Stop the server as a crash would (immediate mode); the files stay. */
  halt(mode?: 'immediate' | 'fast' | 'smart'): void;
  /** Start a halted server again on the same port. */
  resume(): void;
}>;
