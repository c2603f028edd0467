// A table as the client knows it: the server's TableState plus the events applied in order (docs/protocol.md
// "Table events"). Pure: each function returns a new model; no DOM, no socket.

import { boardOf, parseSquare, pdnSquare } from './board/geometry.js';

/** A model from a full `table` state. `now` stamps the clocks so they can count down. Chat lines already
 * received are kept (the full state does not carry chat). */
export function fromState(state, now, previous) {
  const game = state.game ? { ...state.game, clocksAt: now, last: lastOf(state.spec.game, state.game) } : null;
  return { ...state, game, chat: previous && previous.id === state.id ? previous.chat : [] };
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
 * ignore) or 'gap' (a version is missing: the caller sends `open` with `since` = model.version).
 */
export function applyEvent(model, v, ev, now) {
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
      m.game = g;
      break;
    }
    case 'seat': {
      const seats = [...m.seats];
      seats[ev.seat] = ev.info;
      m.seats = seats;
      break;
    }
    case 'started':
      m.game = { ...ev.game, clocksAt: now, last: lastOf(m.spec.game, ev.game) };
      m.rematch = [];
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

/** Whether it is the viewer's turn. */
export function isMyTurn(model) {
  return !!(model && model.game && !model.game.outcome && model.you !== null && model.you !== undefined && model.game.turn === model.you);
}

/** Number of moves played (the `ply` a move is sent with). */
export function plyOf(model) {
  return model && model.game ? (model.game.moves || []).length : 0;
}

/** The seat that moved first in the table's current game. With the house rule `rotate_first` a rematch starts one
 * seat further clockwise, so seat and colour differ: the first mover plays White (chess), the side that moves first
 * in the draughts variant, or Red (four-player). */
export function firstSeat(game) {
  if (!game) return 0;
  if (game.moves && game.moves.length) return game.moves[0].seat;
  return game.turn === null || game.turn === undefined ? 0 : game.turn;
}

/** The colour (army) index a seat plays in the current game: 0 for the first mover, then in turn order. */
export function colourOf(model, seat) {
  if (seat === null || seat === undefined || !model) return seat;
  const n = model.seats.length || 2;
  return (((seat - firstSeat(model.game)) % n) + n) % n;
}

/** Per-seat flags re-indexed by colour (four-player eliminated armies, for drawing grey pieces). */
export function byColour(model, perSeat) {
  const out = [];
  (perSeat || []).forEach((v, seat) => { out[colourOf(model, seat)] = v; });
  return out;
}
