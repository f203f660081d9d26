/**
 * The scanner's type-ahead buffer. A keyboard-wedge scanner types the next code at once after an Enter, before the
 * page has looked the last one up and moved the focus to the next box (which may not even exist yet). From a scan's
 * Enter until its handler has settled and React has committed, typed characters and Enters are held here instead of
 * landing in the old box, then replayed into whatever box has the focus by then. A replayed Enter that starts another
 * scan hands the rest of the queue on to that scan, so a whole burst of scans lands where a person would have typed it.
 */

import { useEffect, useLayoutEffect, useState } from 'react';

const held: string[] = [];
let pending = 0;
let listening = false;

/** A key a scanner types: one printable character, or Enter. */
const isScanKey = (e: KeyboardEvent) =>
  e.key === 'Enter' || (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey);

function hold(e: KeyboardEvent) {
  if (pending === 0 || !e.isTrusted || !isScanKey(e)) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  held.push(e.key);
}

function listen() {
  if (listening || typeof document === 'undefined') return;
  document.addEventListener('keydown', hold, true);
  listening = true;
}

const frame = () =>
  new Promise<void>((resolve) => {
    if (typeof requestAnimationFrame === 'undefined') setTimeout(resolve, 16);
    else requestAnimationFrame(() => resolve());
  });

/** Resolves the calls waiting for React to have committed, set by the mounted ScanBufferProbe. */
let bumpProbe: (() => void) | null = null;
const probeWaiters: Array<() => void> = [];

/**
 * Mounted once, as the last child of the app: its effect runs after every effect of the page in the same commit, so
 * when it runs for an update requested after a scan's handler settled, React has rendered what the handler set and
 * the page's effects have moved the focus. (Counting quiet animation frames alone is not enough: on a busy machine
 * React may render the handler's state after two frames, and the first replayed key then lands in the old box.)
 */
export function ScanBufferProbe(): null {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    bumpProbe = () => setTick((n) => n + 1);
    return () => {
      bumpProbe = null;
    };
  }, []);
  useEffect(() => {
    if (tick > 0) for (const resolve of probeWaiters.splice(0)) resolve();
  }, [tick]);
  return null;
}

/** Until React has committed every update requested so far and run the effects (no probe mounted: at once). */
function reactSettled(): Promise<void> {
  const bump = bumpProbe;
  if (!bump) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000);
    probeWaiters.push(() => {
      clearTimeout(timer);
      resolve();
    });
    bump();
  });
}

/**
 * Until the page has settled what the handler set off: rendered, committed, its effects run and the focus moved.
 * A screen may take more than one render for that (a table measures itself, then draws the boxes the focus goes
 * to), so after React's commit this also waits for two frames in a row without a change to the DOM (at most about a
 * second). If the page suspended (a fallback is shown), it waits for the page first.
 */
async function afterCommit(): Promise<void> {
  await reactSettled();
  await pageShown();
  if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return frame();
  let changed = true;
  const observer = new MutationObserver(() => {
    changed = true;
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  try {
    for (let i = 0; i < 30 && changed; i++) {
      changed = false;
      await frame();
      await frame();
    }
  } finally {
    observer.disconnect();
  }
  await focusLanded();
}

/** Suspense fallbacks on screen (PageLoading): the page is hidden while a chunk or its translations load. */
let loading = 0;
const loadedWaiters: Array<() => void> = [];

/**
 * Called by a Suspense fallback (PageLoading) while it is shown. A scan's handler may set state that makes the page
 * suspend (the next step's code or translations are not loaded yet): React then hides the page behind the fallback
 * and commits at once, and until the page is back the box that was scanned may still look focused (the browser moves
 * the focus off a hidden box only at its next rendering update). Keys typed meanwhile wait for the page.
 */
export function useHoldScansWhileLoading(): void {
  useLayoutEffect(() => {
    loading += 1;
    return () => {
      loading -= 1;
      if (loading === 0) for (const resolve of loadedWaiters.splice(0)) resolve();
    };
  }, []);
}

/** Until no Suspense fallback is shown (at most 15 s: a chunk that never loads must not swallow the keys). */
function pageShown(): Promise<void> {
  if (loading === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 15_000);
    loadedWaiters.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Nothing has the focus (the old box went away, the next one is still loading): wait until a box takes it. */
function focusLanded(): Promise<void> {
  const el = document.activeElement;
  if (el && el !== document.body) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      document.removeEventListener('focusin', done);
      resolve();
    };
    const timer = setTimeout(done, 5000);
    document.addEventListener('focusin', done);
  });
}

const valueSetter = Object.getOwnPropertyDescriptor(
  typeof HTMLInputElement === 'undefined' ? Object : HTMLInputElement.prototype,
  'value',
)?.set;

/** Types one held key into the focused element as the browser would have (React sees a normal input event). */
function replay(key: string) {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement)) return;
  if (key === 'Enter') {
    if (el instanceof HTMLButtonElement) return el.click();
    const init = { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true };
    el.dispatchEvent(new KeyboardEvent('keydown', init));
    el.dispatchEvent(new KeyboardEvent('keyup', init));
    return;
  }
  if (!(el instanceof HTMLInputElement) || el.disabled || el.readOnly) return;
  const start = el.selectionStart ?? el.value.length;
  const end = el.selectionEnd ?? start;
  valueSetter?.call(el, el.value.slice(0, start) + key + el.value.slice(end));
  el.setSelectionRange(start + 1, start + 1);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

function flush() {
  // A replayed Enter may start another scan (pending > 0 again): the rest waits for that one.
  while (held.length > 0 && pending === 0) replay(held.shift()!);
}

/**
 * Holds what is typed from now until `work` (a scan's handler) has settled and the page has rendered what it set,
 * then types it into the box that has the focus then.
 */
export function holdKeysWhile(work: unknown): void {
  listen();
  pending += 1;
  void Promise.resolve(work)
    .catch(() => undefined)
    .then(afterCommit)
    .then(() => {
      pending -= 1;
      flush();
    });
}
