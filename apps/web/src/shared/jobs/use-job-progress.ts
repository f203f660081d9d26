import {
  ERROR_CATALOGUE,
  errorMessage,
  jobRoutes,
  type TErrorCode,
  type TImportRowError,
  type TJob,
} from '@wms/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiCall } from '../api/client';
import { errorText } from '../forms/error-text';
import { getLanguage } from '../preferences/preferences';

const POLL_MS = 600;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll a queued job until it succeeds or fails, handing every state to `onProgress`; stops when `stopped()` says so. */
export async function followJob(
  first: TJob,
  onProgress: (job: TJob) => void,
  stopped: () => boolean = () => false,
): Promise<TJob> {
  let job = first;
  onProgress(job);
  while ((job.state === 'queued' || job.state === 'running') && !stopped()) {
    await sleep(POLL_MS);
    job = await apiCall(jobRoutes.getJob, { params: { id: job.id } });
    if (!stopped()) onProgress(job);
  }
  return job;
}

/** A failed job's error (stored as code + params) in the user's language. */
export function jobErrorText(error: TJob['error']): string {
  const code = error?.code ?? 'INTERNAL_ERROR';
  const known = Object.hasOwn(ERROR_CATALOGUE, code) ? (code as TErrorCode) : 'INTERNAL_ERROR';
  return errorMessage(known, getLanguage(), error?.params ?? {});
}

export interface TJobProgress {
  /** The job's last known state (null before the first start). */
  job: TJob | null;
  /** Starting or polling. */
  running: boolean;
  /** 0–100 for a progress bar (0 while the total is unknown). */
  percent: number;
  /** The rows a refused import named (IMPORT_REJECTED), else empty. */
  rowErrors: TImportRowError[];
  /** Why starting or polling failed (the server's message in the user's language), or null. */
  error: string | null;
  setError: (text: string | null) => void;
  /** Start a job and follow it; resolves with its final state, or null when it could not be started or followed. */
  run: (start: () => Promise<TJob>) => Promise<TJob | null>;
}

/** Start a long-running job (an import) and follow its progress until it ends; polling stops on unmount. */
export function useJobProgress(): TJobProgress {
  const [job, setJob] = useState<TJob | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unmounted = useRef(false);
  useEffect(() => {
    unmounted.current = false;
    return () => {
      unmounted.current = true;
    };
  }, []);

  const run = useCallback(async (start: () => Promise<TJob>) => {
    setRunning(true);
    setError(null);
    setJob(null);
    try {
      return await followJob(await start(), setJob, () => unmounted.current);
    } catch (err) {
      if (!unmounted.current) setError(errorText(err));
      return null;
    } finally {
      if (!unmounted.current) setRunning(false);
    }
  }, []);

  const rowErrors =
    (job?.state === 'failed' ? (job.error?.params?.errors as TImportRowError[] | undefined) : undefined) ?? [];
  const percent = job && job.total > 0 ? Math.round((job.progress / job.total) * 100) : 0;
  return { job, running, percent, rowErrors, error, setError, run };
}
