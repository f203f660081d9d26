/**
 * What a handheld gives back on a scan, so the operator's eyes can stay on the shelf: an accepted scan is a short high
 * beep and a tap of vibration, a refused one a distinct low two-note buzz and a long vibration pattern. Web Audio, no
 * sound files; silent where the browser has none. Played by the shared scan box (scan-input.tsx) from the outcome of
 * the screen's scan handler, so every floor screen sounds the same.
 *
 * The last cue is also written on the page (`<html data-scan-feedback="ok|error">`, and a count per kind in
 * `data-scan-feedback-ok` / `data-scan-feedback-error`) so tests and assistive tools can observe it.
 */

export type TScanOutcome = 'ok' | 'error';

/** The vibration patterns (ms on, off, on…): a tap for an accepted scan, three long pulses for a refused one. */
export const VIBRATION: Record<TScanOutcome, number | number[]> = { ok: 40, error: [250, 100, 250, 100, 250] };

let audio: AudioContext | null = null;

function tone(type: OscillatorType, freq: number, start: number, ms: number) {
  const Ctx =
    typeof window === 'undefined'
      ? undefined
      : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  if (!Ctx) return;
  audio ??= new Ctx();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.value = 0.07;
  osc.connect(gain).connect(audio.destination);
  const at = audio.currentTime + start / 1000;
  osc.start(at);
  osc.stop(at + ms / 1000);
}

const counts: Record<TScanOutcome, number> = { ok: 0, error: 0 };

function mark(outcome: TScanOutcome) {
  counts[outcome] += 1;
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.dataset.scanFeedback = outcome;
  root.dataset[outcome === 'ok' ? 'scanFeedbackOk' : 'scanFeedbackError'] = String(counts[outcome]);
}

/** The cue for a scan's outcome: sound, vibration, and the mark on the page. */
export function scanFeedback(outcome: TScanOutcome): void {
  mark(outcome);
  try {
    if (outcome === 'ok') tone('sine', 1760, 0, 70);
    else {
      tone('square', 220, 0, 180);
      tone('square', 160, 220, 260);
    }
  } catch {
    // No audio device or autoplay refused: the screen still shows the result.
  }
  try {
    navigator.vibrate?.(VIBRATION[outcome]);
  } catch {
    // No vibration motor (desktop) or the page is not allowed to: nothing to do.
  }
}

/**
 * What a scan handler's result means: it threw / its promise rejected, or it answered `false` — the scan was
 * refused; anything else — accepted.
 */
export async function scanOutcome(result: unknown): Promise<TScanOutcome> {
  try {
    return (await result) === false ? 'error' : 'ok';
  } catch {
    return 'error';
  }
}
