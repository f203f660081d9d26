export function findPgBin(): string | null;
export function findPgbouncer(): string | null;
export interface TCluster {
  url: string;
  dir: string;
  port: number;
  /** The data directory, the user the server runs as, and the binaries' directory. */
  data: string;
  user: string;
  bin: string;
  /** End the cluster and remove its files. */
  stop(): void;
  /** Stop the server as a crash would (immediate mode); the files stay. */
  halt(mode?: 'immediate' | 'fast' | 'smart'): void;
  /** Start a halted server again on the same port. */
  resume(): void;
}
export function startCluster(): Promise<TCluster>;
/** pgbouncer (transaction pooling, `* =` every database of the cluster) in front of `clusterUrl`. */
export function startPgbouncer(
  clusterUrl: string,
  opts?: { poolSize?: number },
): Promise<{ url: string; adminUrl: string; port: number; dir: string; stop(): void }>;
/** A streaming replica of `cluster` (pg_basebackup -R), in hot standby on a port of its own. */
export function startReplica(cluster: TCluster): Promise<{ url: string; port: number; dir: string; stop(): void }>;
