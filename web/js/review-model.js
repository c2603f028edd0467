// The review and the analysis board as numbers and addresses. Pure (no DOM), tested with `node --test`.

/** The analysis board's games, in menu order. */
export const ANALYSIS_GAMES = ['chess', 'draughts/english', 'draughts/international', 'draughts/russian', 'draughts/pool', 'chess4'];

const MARK_SYMBOL = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** A mark's symbol (chess annotation); '' for none. */
export function markSymbol(mark) {
  return MARK_SYMBOL[mark] || '';
}

/** Seat 0's winning chances, -1 (lost) to +1 (won), for an evaluation in hundredths (the review API's curve). */
export function winChance(e0) {
  return 2 / (1 + Math.exp(-0.00368 * e0)) - 1;
}

/** A ply's x on a graph `width` wide of `count` positions. */
export function plyX(ply, width, count) {
  return count > 1 ? (ply * width) / (count - 1) : 0;
}

/** The ply nearest to `x` on that graph. */
export function plyAt(x, width, count) {
  if (count < 2 || !(width > 0)) return 0;
  return Math.max(0, Math.min(count - 1, Math.round((x / width) * (count - 1))));
}

/** Two players: a point per position, seat 0's winning chances from +1 (top) to -1 (bottom). */
export function chancePoints(positions, width, height) {
  return positions.map((p, i) => [plyX(i, width, positions.length), ((1 - winChance(p.eval[0])) * height) / 2]);
}

/** The areas between a line and the middle y `mid`, `above` and `below` it, as polygons cut where it crosses. */
export function splitAtMiddle(points, mid) {
  const line = [];
  points.forEach((p, i) => {
    const q = points[i - 1];
    if (q && (q[1] - mid) * (p[1] - mid) < 0) {
      const k = (mid - q[1]) / (p[1] - q[1]);
      line.push([q[0] + k * (p[0] - q[0]), mid]);
    }
    line.push(p);
  });
  if (!line.length) return { above: [], below: [] };
  const close = (pts) => [[line[0][0], mid], ...pts, [line[line.length - 1][0], mid]];
  return {
    above: close(line.map(([x, y]) => [x, Math.min(y, mid)])),
    below: close(line.map(([x, y]) => [x, Math.max(y, mid)])),
  };
}

/** Four players: a line per army in points (eval / 100), scaled so all values and 0 fit; `zero` is 0's y. */
export function armyLines(positions, width, height, pad = 6) {
  const values = positions.map((p) => (p.eval || []).map((e) => e / 100));
  const all = values.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(0, ...all);
  const span = hi - lo || 1;
  const y = (v) => pad + ((hi - v) * (height - 2 * pad)) / span;
  const seats = Math.max(0, ...values.map((v) => v.length));
  const lines = [];
  for (let s = 0; s < seats; s++) lines.push(values.map((v, i) => [plyX(i, width, values.length), y(v[s] || 0)]));
  return { lines, zero: y(0), lo, hi };
}

/** An SVG path through points (to a tenth). */
export function pathOf(points, closed = false) {
  const r = (v) => Math.round(v * 10) / 10;
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${r(x)} ${r(y)}`).join(' ') + (closed && points.length ? ' Z' : '');
}

/** Hundredths with a sign and two decimals: `+0.35`, `-1.20`, `0.00`. */
export function signed(e) {
  const v = Math.round(e) / 100;
  if (v === 0) return '0.00';
  return (v > 0 ? '+' : '-') + Math.abs(v).toFixed(2);
}

/** Hundredths as a number: `1250` -> `12.5`. */
export function units(e, decimals = 1) {
  return (Math.round(e) / 100).toFixed(decimals);
}

/** A review's state: 'done', 'waiting' (poll again) or 'none'. */
export function reviewPhase(body) {
  const s = body && body.state;
  if (s === 'done' && body.review) return 'done';
  if (s === 'queued' || s === 'running') return 'waiting';
  return 'none';
}

/** The analysis board's address for a game, a start ('' the usual one) and wire moves. */
export function analysisHref({ game, start, moves }) {
  const e = encodeURIComponent;
  return `/analysis?game=${e(game || 'chess')}` + (start ? `&start=${e(start)}` : '') + (moves && moves.length ? `&moves=${moves.map(e).join(',')}` : '');
}

/** Read that address's query: a known game (else chess), the start and the moves. */
export function parseAnalysisQuery(search) {
  const q = new URLSearchParams(search || '');
  const game = ANALYSIS_GAMES.includes(q.get('game')) ? q.get('game') : q.get('game') === 'draughts' ? 'draughts/english' : 'chess';
  const start = (q.get('start') || '').trim();
  const moves = (q.get('moves') || '').split(',').map((m) => m.trim()).filter(Boolean);
  return { game, start, moves };
}
