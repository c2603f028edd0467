// Telling a player who looks elsewhere that they are wanted (their move, a challenge): a system notification when
// the page is hidden, only once the player has turned notifications on (the browser asks for permission then, never
// before), and a short vibration on phones unless sounds are off.

import * as sound from './sound.js';

const KEY = 'parlor.notify';

/** Whether this browser can show notifications at all. */
export function supported() {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Whether the player turned notifications on and the browser allows them. */
export function isOn() {
  let wanted = false;
  try { wanted = localStorage.getItem(KEY) === '1'; } catch { wanted = false; }
  return wanted && supported() && Notification.permission === 'granted';
}

/** Turn notifications on (asking the browser's permission) or off; resolves to whether they are on. */
export async function setOn(on) {
  let granted = false;
  if (on && supported()) {
    try { granted = (await Notification.requestPermission()) === 'granted'; } catch { granted = false; }
  }
  try { localStorage.setItem(KEY, granted ? '1' : '0'); } catch { /* not remembered */ }
  return granted;
}

/** Tell the player: vibrate on a phone, and show a notification if the page is hidden and they are on. */
export function tell(title, body) {
  const phone = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  if (phone && !sound.isMuted() && typeof navigator.vibrate === 'function') {
    try { navigator.vibrate([120, 80, 120]); } catch { /* not allowed yet */ }
  }
  if (!document.hidden || !isOn()) return;
  try {
    const n = new Notification(title, { body, tag: 'parlor-attention' });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* a browser that allows notifications only from a service worker */ }
}
