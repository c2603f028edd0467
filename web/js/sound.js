// Sounds made with WebAudio oscillators (no audio files): move, capture, your turn, low time, game end.
// Muted state is remembered in localStorage. Below, notifications, which every page needs as well; app.js names
// the two halves `sound` and `notify`.

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

// Telling a player who looks elsewhere that they are wanted (their move, a challenge): a system notification when
// the page is hidden, only once the player has turned notifications on (the browser asks for permission then, never
// before), and a short vibration on phones unless sounds are off.

const NOTIFY_KEY = 'parlor.notify';

/** Whether this browser can show notifications at all. */
export function supported() {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Whether the player turned notifications on and the browser allows them. */
export function isOn() {
  let wanted = false;
  try { wanted = localStorage.getItem(NOTIFY_KEY) === '1'; } catch { wanted = false; }
  return wanted && supported() && Notification.permission === 'granted';
}

/** Turn notifications on (asking the browser's permission) or off; resolves to whether they are on. */
export async function setOn(on) {
  let granted = false;
  if (on && supported()) {
    try { granted = (await Notification.requestPermission()) === 'granted'; } catch { granted = false; }
  }
  try { localStorage.setItem(NOTIFY_KEY, granted ? '1' : '0'); } catch { /* not remembered */ }
  return granted;
}

/** Tell the player: vibrate on a phone, and show a notification if the page is hidden and they are on. */
export function tell(title, body) {
  const phone = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  if (phone && !isMuted() && typeof navigator.vibrate === 'function') {
    try { navigator.vibrate([120, 80, 120]); } catch { /* not allowed yet */ }
  }
  if (!document.hidden || !isOn()) return;
  try {
    const n = new Notification(title, { body, tag: 'parlor-attention' });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* a browser that allows notifications only from a service worker */ }
}
