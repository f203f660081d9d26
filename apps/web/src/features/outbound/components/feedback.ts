/**
 * The packing station's cue: a short high beep for an accepted scan, a low buzz for a refused one (Web Audio, no
 * sound files). The screen also flashes; the sound helps when the packer's eyes are on the box.
 */
let ctx: AudioContext | null = null;

export function beep(kind: 'ok' | 'refused'): void {
  try {
    const AudioCtx =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AudioCtx) return;
    ctx ??= new AudioCtx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = kind === 'ok' ? 'sine' : 'square';
    osc.frequency.value = kind === 'ok' ? 1320 : 220;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    const now = ctx.currentTime;
    osc.start(now);
    osc.stop(now + (kind === 'ok' ? 0.08 : 0.45));
  } catch {
    // No audio (autoplay policy, headless browser): the visual cue remains.
  }
}
