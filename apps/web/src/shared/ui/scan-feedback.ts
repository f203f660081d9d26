/**
 * What a handheld gives back on a scan: a short high beep and a tap of vibration when the camera read a code. Web
 * Audio, no sound files; silent where the browser has none.
 */

let audio: AudioContext | null = null;

function tone(freq: number, start: number, ms: number) {
  const Ctx = typeof window === 'undefined' ? undefined : (window.AudioContext ?? undefined);
  if (!Ctx) return;
  audio ??= new Ctx();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = 'square';
  osc.frequency.value = freq;
  gain.gain.value = 0.06;
  osc.connect(gain).connect(audio.destination);
  const at = audio.currentTime + start / 1000;
  osc.start(at);
  osc.stop(at + ms / 1000);
}

/** A code was read. */
export function scanSucceeded(): void {
  try {
    tone(1760, 0, 70);
    navigator.vibrate?.(40);
  } catch {
    // No audio device or autoplay refused: the screen still shows the result.
  }
}
