// Positions for the replay view when the server gives only the start and the moves: each move's pieces are moved
// as its wire names them (from, to, captures, castling's rook, en passant, promotion, a draughts man reaching the
// far row). This redraws played moves; it never decides what is legal. When the game JSON carries a `position`
// per move, the replay uses that instead.

import { boardOf, key, parseSquare, pdnSquare } from './geometry.js';
import { parsePosition } from './position.js';

/** The list of piece maps: index 0 the start, index k after k moves. */
export function replayPositions(game, start, moves) {
  const out = [parsePosition(game, start).pieces];
  for (const m of moves) {
    out.push(m.position ? parsePosition(game, m.position).pieces : applyWire(game, out[out.length - 1], m.wire));
  }
  return out;
}

/** Move the pieces as a wire move says. Unknown wires leave the position as it was. */
export function applyWire(game, pieces, wire) {
  const board = boardOf(game);
  const next = new Map(pieces);
  const w = String(wire || '');
  if (board.family === 'draughts') {
    const sq = w.split(/[-x:]/).map((s) => pdnSquare(board, Number(s))).filter(Boolean);
    if (sq.length < 2) return next;
    const p = next.get(key(...sq[0]));
    if (!p) return next;
    next.delete(key(...sq[0]));
    if (/x/.test(w)) {
      for (let i = 1; i < sq.length; i++) {
        // The taken piece is the one on the diagonal between two landings (flying kings: possibly far from both).
        const [a, b] = [sq[i - 1], sq[i]];
        const df = Math.sign(b[0] - a[0]);
        const dr = Math.sign(b[1] - a[1]);
        for (let f = a[0] + df, r = a[1] + dr; f !== b[0]; f += df, r += dr) {
          if (next.has(key(f, r))) { next.delete(key(f, r)); break; }
        }
      }
    }
    const to = sq[sq.length - 1];
    const farRow = p.colour === 'w' ? board.size - 1 : 0;
    const crowned = p.role === 'M' && to[1] === farRow ? { ...p, role: 'K', sprite: 'king-' + (p.colour === 'w' ? 'white' : 'black') } : p;
    next.set(key(...to), crowned);
    return next;
  }
  const names = w.toLowerCase().match(/[a-n](?:1[0-4]|[1-9])/g) || [];
  if (names.length < 2) return next;
  const from = parseSquare(board, names[0]);
  const to = parseSquare(board, names[1]);
  if (!from || !to) return next;
  const p = next.get(key(...from));
  if (!p) return next;
  next.delete(key(...from));
  const df = to[0] - from[0];
  const dr = to[1] - from[1];
  // Castling, shown as the king's two-square move: the rook from the corner in that direction jumps over.
  if (p.role === 'K' && (Math.abs(df) === 2 && dr === 0 || Math.abs(dr) === 2 && df === 0)) {
    const sf = Math.sign(df);
    const sr = Math.sign(dr);
    for (let f = to[0] + sf, r = to[1] + sr; f >= 0 && r >= 0 && f < board.size && r < board.size; f += sf, r += sr) {
      const q = next.get(key(f, r));
      if (q && q.role === 'R' && q.seat === p.seat) { next.delete(key(f, r)); next.set(key(to[0] - sf, to[1] - sr), q); break; }
      if (q) break;
    }
  }
  // En passant: a pawn moving diagonally to an empty square takes the pawn it passed (chess).
  if (p.role === 'P' && df !== 0 && dr !== 0 && !next.has(key(...to)) && board.family === 'chess') next.delete(key(to[0], from[1]));
  const promo = /[=]?([qrbnQRBN])$/.exec(w.replace(/[+#]+$/, ''));
  let placed = p;
  if (p.role === 'P' && promo && /[a-n]\d{1,2}=?[qrbnQRBN]$/.test(w.replace(/[+#]+$/, ''))) {
    const role = promo[1].toUpperCase();
    placed = { ...p, role, sprite: board.family === 'chess4' ? 'army-' + role : p.colour + role };
  }
  next.set(key(...to), placed);
  return next;
}
