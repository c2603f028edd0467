// Clock arithmetic and formatting. The server sends clocks as of the moment it made a message; the client counts
// the running seat down itself from the time it received them. Pure, no DOM.

/** Milliseconds a seat has left now. `clocks` as the protocol sends them, `receivedAt` and `now` in ms
 * (performance.now() or Date.now(), the same for both). Null for a seat without an overall clock. */
export function remainingNow(clocks, seat, receivedAt, now) {
  if (!clocks) return null;
  const base = clocks.remaining_ms ? clocks.remaining_ms[seat] : null;
  if (base === null || base === undefined) return null;
  const spent = clocks.running === seat ? Math.max(0, now - receivedAt) : 0;
  return Math.max(0, base - spent);
}

/** Milliseconds left under the per-move cap for the running seat, or null. */
export function moveLeftNow(clocks, receivedAt, now) {
  if (!clocks || clocks.move_left_ms === null || clocks.move_left_ms === undefined || clocks.running === null) return null;
  return Math.max(0, clocks.move_left_ms - Math.max(0, now - receivedAt));
}

/** The time a seat really has: the smaller of its clock and the per-move cap (when it is running). */
export function effectiveNow(clocks, seat, receivedAt, now) {
  const total = remainingNow(clocks, seat, receivedAt, now);
  const cap = clocks && clocks.running === seat ? moveLeftNow(clocks, receivedAt, now) : null;
  if (total === null) return cap;
  if (cap === null) return total;
  return Math.min(total, cap);
}

/** Low time: under 20 s, or under a tenth of the base time when that is shorter (and at least 10 s). */
export function isLow(ms, baseMs) {
  if (ms === null || ms === undefined) return false;
  const limit = baseMs ? Math.max(10000, Math.min(20000, baseMs / 10)) : 10000;
  return ms < limit;
}

/** Clock text with Western digits: `h:mm:ss` from an hour, `m:ss` under it, `s.t` (tenths) under 10 s.
 * Time is rounded up so a clock shows 0:00 only when it is really out. */
export function formatClock(ms) {
  if (ms === null || ms === undefined) return '';
  const m = Math.max(0, ms);
  if (m < 10000) {
    const tenths = Math.ceil(m / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.ceil(m / 1000);
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(min).padStart(2, '0')}:${ss}` : `${min}:${ss}`;
}

const DIGITS = { bn: '০১২৩৪৫৬৭৮৯', mr: '०१२३४५६७८९' };

/** Replace Western digits with the language's own (Bengali, Devanagari); other languages unchanged. */
export function localDigits(text, lang) {
  const d = DIGITS[lang];
  if (!d) return String(text);
  return String(text).replace(/[0-9]/g, (c) => d[Number(c)]);
}
