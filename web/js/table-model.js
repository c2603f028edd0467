// A table as the client knows it: the server's TableState plus the events applied in order (docs/protocol.md
// "Table events"), and below, the clocks' countdown and display. Pure: each function returns a new model; no DOM,
// no socket.

import { boardOf, familyOf, parseSquare, pdnSquare } from './board/geometry.js';

/** A model from a full `table` state. `now` stamps the clocks so they can count down. The chat is the state's
 * latest lines merged with the lines already received: the server leaves out the lines of players the viewer
 * muted, and those received before the mute come back when the viewer unmutes (the page hides them meanwhile). */
export function fromState(state, now, previous) {
  const game = state.game ? { ...state.game, clocksAt: now, last: lastOf(state.spec.game, state.game) } : null;
  const kept = previous && previous.id === state.id ? previous.chat || [] : [];
  return { ...state, game, chat: mergeChat(kept, state.chat || []) };
}

function mergeChat(a, b) {
  const key = (l) => `${l.at_ms}\u0000${l.from && l.from.id}\u0000${l.text}`;
  const seen = new Set();
  const out = [];
  for (const line of [...a, ...b]) {
    const k = key(line);
    if (!seen.has(k)) { seen.add(k); out.push(line); }
  }
  return out.sort((x, y) => x.at_ms - y.at_ms).slice(-200);
}

function lastOf(gameName, game) {
  const moves = game.moves || [];
  if (!moves.length) return null;
  return wireSquares(gameName, moves[moves.length - 1].wire);
}

/** The squares a wire move names, best effort, for the last-move highlight after a full state:
 * chess UCI / four-player long algebraic (`e2e4`, `d2-d4`, `h1-j1`), draughts PDN (`11-15`, `22x15x6`). */
export function wireSquares(gameName, wire) {
  const board = boardOf(gameName);
  const w = String(wire || '');
  if (board.family === 'draughts') {
    const sq = w.split(/[-x:]/).map((s) => pdnSquare(board, Number(s))).filter(Boolean);
    if (sq.length < 2) return null;
    return { from: sq[0], to: sq[sq.length - 1], path: sq.slice(1) };
  }
  const names = w.toLowerCase().match(/[a-n](?:1[0-4]|[1-9])/g) || [];
  const sq = names.map((n) => parseSquare(board, n)).filter(Boolean);
  if (sq.length < 2) return null;
  return { from: sq[0], to: sq[1], path: [sq[1]] };
}

/**
 * Apply one `event` with version `v`. Returns {model, status}: status is 'applied', 'duplicate' (already had it:
 * ignore) or 'gap' (a version is missing: the caller sends `open` with `since` = model.version). `me` (the viewer's
 * player id) lets a `seat` event set or clear `you`: the server sends no new state when the viewer sits or stands.
 */
export function applyEvent(model, v, ev, now, me) {
  if (v <= model.version) return { model, status: 'duplicate' };
  if (v > model.version + 1) return { model, status: 'gap' };
  const m = { ...model, version: v };
  const g = m.game ? { ...m.game } : null;
  switch (ev.e) {
    case 'moved': {
      if (!g) break;
      const played = (g.legal || []).find((x) => x.wire === ev.wire);
      g.last = played ? { from: played.from, to: played.to, path: played.path && played.path.length ? played.path : [played.to], captures: played.captures || [] }
        : wireSquares(m.spec.game, ev.wire);
      g.moves = [...(g.moves || []), { seat: ev.seat, wire: ev.wire, display: ev.display }];
      Object.assign(g, { position: ev.position, turn: ev.turn, legal: ev.legal || [], clocks: ev.clocks, clocksAt: now,
        points: ev.points, eliminated: ev.eliminated, check: ev.check || [] });
      if (g.draw_offer !== null && g.draw_offer !== undefined && g.draw_offer !== ev.seat) g.draw_offer = null;
      g.takeback_offer = null;
      m.game = g;
      break;
    }
    case 'seat': {
      const seats = [...m.seats];
      seats[ev.seat] = ev.info;
      m.seats = seats;
      if (me) {
        const mine = !!(ev.info && ev.info.player && ev.info.player.id === me);
        if (mine) m.you = ev.seat;
        else if (m.you === ev.seat) m.you = null;
      }
      break;
    }
    case 'started':
      m.game = { ...ev.game, clocksAt: now, last: lastOf(m.spec.game, ev.game) };
      m.rematch = [];
      break;
    case 'took_back':
      m.game = { ...ev.game, clocksAt: now, last: lastOf(m.spec.game, ev.game) };
      break;
    case 'ended':
      if (!g) break;
      Object.assign(g, { outcome: ev.outcome, clocks: ev.clocks, clocksAt: now, points: ev.points, eliminated: ev.eliminated,
        turn: null, legal: [], draw_offer: null, ratings: ev.ratings || [] });
      m.game = g;
      break;
    case 'eliminated':
      if (!g) break;
      Object.assign(g, { turn: ev.turn, legal: ev.legal || [], clocks: ev.clocks, clocksAt: now, points: ev.points, eliminated: ev.eliminated });
      m.game = g;
      break;
    case 'draw_offered':
      if (g) { g.draw_offer = ev.seat; m.game = g; }
      break;
    case 'draw_declined':
      if (g) { g.draw_offer = null; m.game = g; }
      break;
    case 'takeback_offered':
      if (g) { g.takeback_offer = ev.seat; m.game = g; }
      break;
    case 'takeback_declined':
      if (g) { g.takeback_offer = null; m.game = g; }
      break;
    case 'rematch':
      m.rematch = ev.seats || [];
      break;
    case 'spectators':
      m.spectators = ev.count;
      break;
    case 'chat':
      m.chat = [...(m.chat || []), { from: ev.from, text: ev.text, at_ms: ev.at_ms }].slice(-200);
      break;
    default:
      break;
  }
  return { model: m, status: 'applied' };
}

/** Whether the viewer may take back (or ask to take back) a move: seated at a casual table, against computers
 * only or with one other person, in a running game where they have moved and have not asked already. */
export function canTakeBack(model) {
  const g = model && model.game;
  const me = model && model.you;
  if (!g || g.outcome || me === null || me === undefined || model.spec.rated || g.takeback_offer === me) return false;
  const computers = model.seats.every((s, i) => i === me || (s && s.cpu && !s.player));
  const twoPeople = model.seats.length === 2 && model.seats.every((s) => s && s.player && !s.cpu);
  return (computers || twoPeople) && (g.moves || []).some((mv) => mv.seat === me);
}

/** Whether it is the viewer's turn. */
export function isMyTurn(model) {
  return !!(model && model.game && !model.game.outcome && model.you !== null && model.you !== undefined && model.game.turn === model.you);
}

/** Number of moves played (the `ply` a move is sent with). */
export function plyOf(model) {
  return model && model.game ? (model.game.moves || []).length : 0;
}

/** The seat that moved first in the table's current game. With the house rule `rotate_first` a rematch starts one
 * seat further clockwise. At two-player tables the colours go round with it, so seat and colour differ: the first
 * mover plays White (chess) or the side that moves first in the draughts variant. At four-player tables every seat
 * keeps its army (seat 1 Red, 2 Blue, 3 Yellow, 4 Green) and only the first mover changes. */
export function firstSeat(game) {
  if (!game) return 0;
  if (game.moves && game.moves.length) return game.moves[0].seat;
  return game.turn === null || game.turn === undefined ? 0 : game.turn;
}

/** The colour (army) index a seat plays in the current game: two players, 0 for the first mover, then in turn
 * order; four-player chess, the seat's own army. */
export function colourOf(model, seat) {
  if (seat === null || seat === undefined || !model) return seat;
  if (model.spec && familyOf(model.spec.game) === 'chess4') return seat;
  const n = model.seats.length || 2;
  return (((seat - firstSeat(model.game)) % n) + n) % n;
}

/** Per-seat flags re-indexed by colour (four-player eliminated armies, for drawing grey pieces). */
export function byColour(model, perSeat) {
  const out = [];
  (perSeat || []).forEach((v, seat) => { out[colourOf(model, seat)] = v; });
  return out;
}

/** Each army's latest move in the current game, marked on a four-player board until that army moves again:
 * [{colour, from, to, newest}] for every seat that has moved and is still in. */
export function lastByArmy(model) {
  const g = model && model.game;
  if (!g) return [];
  const latest = new Map();
  (g.moves || []).forEach((mv, i) => latest.set(mv.seat, { wire: mv.wire, i }));
  const last = (g.moves || []).length - 1;
  const out = [];
  for (const [seat, { wire, i }] of latest) {
    if (g.eliminated && g.eliminated[seat]) continue;
    const sq = wireSquares(model.spec.game, wire);
    if (sq) out.push({ colour: colourOf(model, seat), from: sq.from, to: sq.to, newest: i === last });
  }
  return out;
}

/** The colours in turn order from the first mover's: [0, 1] at two-player tables; at four-player tables the
 * armies from the one that moved first. */
export function turnOrder(model) {
  const n = (model && model.seats.length) || 2;
  const first = colourOf(model, firstSeat(model && model.game)) || 0;
  return [...Array(n).keys()].map((k) => (first + k) % n);
}

/** The move list as rounds: one row per round, one cell per colour (indexed by colour), a cell empty where that
 * colour did not move (it was out, or the round is still going). A row ends when the next mover comes before or
 * at the last one's place in turn order, so rows stay aligned after an elimination. */
export function moveRows(model) {
  const g = model && model.game;
  const n = (model && model.seats.length) || 2;
  const place = new Map(turnOrder(model).map((c, k) => [c, k]));
  const rows = [];
  let row = null;
  let prev = -1;
  (g ? g.moves || [] : []).forEach((mv, i) => {
    const c = colourOf(model, mv.seat);
    if (!row || place.get(c) <= prev) {
      row = { number: rows.length + 1, cells: new Array(n).fill(null) };
      rows.push(row);
    }
    row.cells[c] = { ply: i + 1, seat: mv.seat, display: mv.display };
    prev = place.get(c);
  });
  return rows;
}

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
