// Sounds made with WebAudio oscillators (no audio files): move, capture, your turn, low time, game end.
// Muted state is remembered in localStorage.

const KEY = 'parlor.muted';
let ctx = null;
let muted = false;
try { muted = localStorage.getItem(KEY) === '1'; } catch { muted = false; }

const TUNES = {
  move: [[520, 0, 0.06, 'triangle']],
  capture: [[300, 0, 0.05, 'square'], [180, 0.05, 0.08, 'triangle']],
  turn: [[660, 0, 0.08, 'sine'], [880, 0.09, 0.1, 'sine']],
  low: [[990, 0, 0.06, 'square'], [990, 0.12, 0.06, 'square']],
  end: [[523, 0, 0.12, 'sine'], [659, 0.12, 0.12, 'sine'], [784, 0.24, 0.25, 'sine']],
};

export function isMuted() {
  return muted;
}

export function setMuted(m) {
  muted = !!m;
  try { localStorage.setItem(KEY, muted ? '1' : '0'); } catch { /* not remembered */ }
}

/** Browsers allow audio only after a user gesture: call this from one. */
export function unlock() {
  if (ctx || typeof AudioContext === 'undefined') return;
  try { ctx = new AudioContext(); } catch { ctx = null; }
}

export function play(kind) {
  if (muted || !ctx || !TUNES[kind]) return;
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  const t0 = ctx.currentTime + 0.01;
  for (const [freq, at, len, type] of TUNES[kind]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.02);
  }
}
