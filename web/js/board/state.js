// The move-input state machine of the board (chessground's idea: the board knows no rules). It takes the server's
// legal moves and the player's clicks, drags or typed text, and says which `wire` move to send, or which choice to
// ask for (promotion piece, draughts capture path). Pure, no DOM.

import { boardOf, key, parseSquare, pdnNumber, pdnSquare } from './geometry.js';

/** The idle state: nothing selected, nothing to choose. */
export function idle() {
  return { selected: null, dests: [], pending: null };
}

const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

/** Legal moves starting on a square. */
export function movesFrom(legal, sq) {
  return (legal || []).filter((m) => same(m.from, sq));
}

/** Distinct destination squares of the moves from a square. */
export function destinations(legal, sq) {
  const seen = new Set();
  const out = [];
  for (const m of movesFrom(legal, sq)) {
    const k = key(m.to[0], m.to[1]);
    if (!seen.has(k)) { seen.add(k); out.push(m.to); }
  }
  return out;
}

/** Whether a square is the start of some legal move. */
export function canSelect(legal, sq) {
  return movesFrom(legal, sq).length > 0;
}

function arrive(from, to, legal) {
  const options = movesFrom(legal, from).filter((m) => same(m.to, to));
  if (options.length === 0) return null;
  if (options.length === 1) return { state: idle(), play: options[0].wire };
  const kind = options.every((m) => m.promotion) ? 'promotion' : 'path';
  return { state: { selected: from, dests: [], pending: { kind, from, to, options } }, play: null };
}

/**
 * A click (or tap) on a square. Returns {state, play}: play is a wire move to send, or null.
 * While a choice is pending, a click elsewhere cancels it.
 */
export function click(state, legal, sq) {
  if (state.pending) return { state: idle(), play: null };
  if (state.selected) {
    if (same(state.selected, sq)) return { state: idle(), play: null };
    const done = arrive(state.selected, sq, legal);
    if (done) return done;
  }
  if (canSelect(legal, sq)) return { state: { selected: sq, dests: destinations(legal, sq), pending: null }, play: null };
  return { state: idle(), play: null };
}

/** A drag that starts on `from`: selects it (showing its destinations) if it can move. */
export function dragStart(state, legal, from) {
  if (!canSelect(legal, from)) return { state: idle(), play: null };
  return { state: { selected: from, dests: destinations(legal, from), pending: null }, play: null };
}

/** A drop on `to` after a drag from the selected square. Dropping back on the start keeps the selection (so a
 * tap that moved a few pixels still works as a click); anywhere else without a move deselects. */
export function drop(state, legal, to) {
  if (!state.selected) return { state: idle(), play: null };
  if (same(state.selected, to)) return { state, play: null };
  return arrive(state.selected, to, legal) || { state: idle(), play: null };
}

/** The player picked one option of a pending choice (by its wire). */
export function choose(state, wire) {
  if (!state.pending) return { state, play: null };
  const m = state.pending.options.find((o) => o.wire === wire);
  return m ? { state: idle(), play: m.wire } : { state, play: null };
}

/** Drop any selection or choice (Escape, a new position). */
export function cancel() {
  return idle();
}

/** Keep a selection valid after the legal moves changed (a new position): drop it if its square cannot move. */
export function refresh(state, legal) {
  if (state.pending) return idle();
  if (!state.selected || !canSelect(legal, state.selected)) return idle();
  return { selected: state.selected, dests: destinations(legal, state.selected), pending: null };
}

/**
 * A move typed in the game's notation. Chess and four-player: the wire form (`e2e4`, `e7e8q`, `e2-e4`), SAN
 * (`Nf3`, `exd6`, `e8=Q`, `O-O`, `O-O-O`; check marks ignored). Draughts: PDN numbers (`11-15`, `22x15`,
 * `22x13x6`). `pieces` is the parsed position (for SAN piece letters). Returns {wire} for one match,
 * {options} when several moves fit, or null.
 */
export function matchTyped(game, legal, pieces, text) {
  const board = boardOf(game);
  const raw = String(text || '').trim().replace(/[+#!?]+$/g, '');
  if (!raw) return null;
  const exact = (legal || []).filter((m) => m.wire.toLowerCase() === raw.toLowerCase());
  if (exact.length === 1) return { wire: exact[0].wire };
  const found = board.family === 'draughts' ? matchDraughts(board, legal, raw) : matchChess(board, legal, pieces, raw);
  if (found.length === 1) return { wire: found[0].wire };
  if (found.length > 1) return { options: found };
  return null;
}

function matchDraughts(board, legal, raw) {
  const nums = raw.split(/[-x:]/i).map((s) => Number(s.trim()));
  if (nums.length < 2 || nums.some((n) => !Number.isInteger(n))) return [];
  const from = pdnSquare(board, nums[0]);
  const to = pdnSquare(board, nums[nums.length - 1]);
  if (!from || !to) return [];
  const capture = /x/i.test(raw);
  return (legal || []).filter((m) => {
    if (!same(m.from, from) || !same(m.to, to)) return false;
    if (capture && !(m.captures && m.captures.length)) return false;
    if (nums.length > 2) {
      const path = (m.path && m.path.length ? m.path : [m.to]).map((sq) => pdnNumber(board, sq[0], sq[1]));
      return path.join(',') === nums.slice(1).join(',');
    }
    return true;
  });
}

function roleAt(pieces, sq) {
  const p = pieces && pieces.get(key(sq[0], sq[1]));
  return p ? p.role : null;
}

function matchChess(board, legal, pieces, raw) {
  const moves = legal || [];
  const castle = /^[O0]-[O0](-[O0])?$/i.exec(raw);
  if (castle) {
    const long = !!castle[1];
    return moves.filter((m) => roleAt(pieces, m.from) === 'K' && Math.abs(m.to[0] - m.from[0]) + Math.abs(m.to[1] - m.from[1]) === 2
      && (board.family !== 'chess' || (long ? m.to[0] < m.from[0] : m.to[0] > m.from[0])));
  }
  const coord = /^([a-n]\d{1,2})[-x]?([a-n]\d{1,2})=?([qrbn])?$/i.exec(raw);
  if (coord) {
    const from = parseSquare(board, coord[1]);
    const to = parseSquare(board, coord[2]);
    const promo = coord[3] ? coord[3].toLowerCase() : null;
    return moves.filter((m) => same(m.from, from) && same(m.to, to) && (promo === null || m.promotion === promo));
  }
  const san = /^([KQRBN])?([a-n])?(\d{1,2})?x?([a-n]\d{1,2})(?:=?([QRBNqrbn]))?$/.exec(raw);
  if (!san) return [];
  const role = san[1] || 'P';
  const to = parseSquare(board, san[4]);
  if (!to) return [];
  const promo = san[5] ? san[5].toLowerCase() : null;
  const fileHint = san[2] ? san[2].charCodeAt(0) - 97 : null;
  const rankHint = san[3] ? Number(san[3]) - 1 : null;
  return moves.filter((m) => same(m.to, to) && roleAt(pieces, m.from) === role
    && (fileHint === null || m.from[0] === fileHint) && (rankHint === null || m.from[1] === rankHint)
    && (promo === null || m.promotion === promo));
}
