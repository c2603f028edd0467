// Reading the server's position text for display: FEN (chess), PDN FEN (draughts) and FEN4 (four-player). This is
// drawing, not rules: legal moves always come from the server. Pure, no DOM.

import { boardOf, pdnSquare, key } from './geometry.js';

/** Army colours of four-player chess by seat, and the grey of eliminated armies. */
export const ARMIES = ['red', 'blue', 'yellow', 'green'];
const ARMY_LETTER = { r: 0, b: 1, y: 2, g: 3 };

/**
 * A piece: {role, colour, seat, sprite}. role: K Q R B N P (chess, four-player) or M / K (draughts man / king).
 * colour: 'w' / 'b' (chess, draughts), or an army name or 'grey' (four-player). seat: the owning seat or null.
 */
export function parsePosition(game, text) {
  const board = boardOf(game);
  if (board.family === 'draughts') return parsePdnFen(board, text, game);
  if (board.family === 'chess4') return parseFen4(text);
  return parseFen(text);
}

/** Chess FEN: placement, side to move. */
export function parseFen(text) {
  const pieces = new Map();
  const [placement = '', side = 'w'] = String(text || '').trim().split(/\s+/);
  const ranks = placement.split('/');
  for (let i = 0; i < ranks.length && i < 8; i++) {
    const r = 7 - i;
    let f = 0;
    for (const ch of ranks[i]) {
      if (ch >= '1' && ch <= '9') { f += Number(ch); continue; }
      const colour = ch === ch.toUpperCase() ? 'w' : 'b';
      const role = ch.toUpperCase();
      if ('KQRBNP'.includes(role) && f < 8) pieces.set(key(f, r), { role, colour, seat: colour === 'w' ? 0 : 1, sprite: colour + role });
      f++;
    }
  }
  return { pieces, turn: side === 'b' ? 1 : 0 };
}

/** PDN FEN: `W:W21,22,K3:B1-4,K9` (side to move, then each side's squares, K marks a king, ranges allowed). */
export function parsePdnFen(board, text, game) {
  const pieces = new Map();
  let s = String(text || '').trim().replace(/^\[FEN\s+"?|"?\]$/g, '').replace(/\.$/, '');
  const fields = s.split(':');
  const side = (fields[0] || 'W').trim().toUpperCase();
  const blackFirst = game === 'draughts/english' || game === 'draughts/pool';
  const seatOf = (c) => ((c === 'b') === blackFirst ? 0 : 1);
  for (const field of fields.slice(1)) {
    const colour = field.trim()[0] && field.trim()[0].toUpperCase() === 'B' ? 'b' : 'w';
    const list = field.trim().slice(1);
    for (let item of list.split(',')) {
      item = item.trim();
      if (!item) continue;
      let role = 'M';
      if (item[0].toUpperCase() === 'K') { role = 'K'; item = item.slice(1); }
      const range = item.split('-').map(Number);
      const [a, b = a] = range;
      for (let num = a; num <= b && num - a < 60; num++) {
        const sq = pdnSquare(board, num);
        if (!sq) continue;
        const sprite = (role === 'K' ? 'king-' : 'man-') + (colour === 'w' ? 'white' : 'black');
        pieces.set(key(sq[0], sq[1]), { role, colour, seat: seatOf(colour), sprite });
      }
    }
  }
  const turnColour = side === 'B' ? 'b' : 'w';
  return { pieces, turn: seatOf(turnColour) };
}

/** FEN4 (chess.com style): fields separated by `-`; the first is the side to move (R/B/Y/G); the board is the last
 * field containing `/`: 14 ranks from the top, comma-separated pieces like `rK`, `dP` (grey) or runs of empties. */
export function parseFen4(text) {
  const pieces = new Map();
  const fields = String(text || '').trim().split('-');
  const turn = Math.max(0, 'RBYG'.indexOf((fields[0] || 'R').trim().toUpperCase()[0]));
  let boardField = '';
  for (const f of fields) if (f.includes('/')) boardField = f;
  const ranks = boardField.split('/');
  for (let i = 0; i < ranks.length && i < 14; i++) {
    const r = 13 - i;
    let f = 0;
    for (const tok of ranks[i].split(',')) {
      const t = tok.trim();
      if (!t) continue;
      if (/^\d+$/.test(t)) { f += Number(t); continue; }
      const owner = t[0].toLowerCase();
      const role = (t[1] || '').toUpperCase();
      if ('KQRBNP'.includes(role) && role) {
        const seat = owner in ARMY_LETTER ? ARMY_LETTER[owner] : null;
        const colour = seat === null ? 'grey' : ARMIES[seat];
        pieces.set(key(f, r), { role, colour, seat, sprite: 'army-' + role });
      }
      f++;
    }
  }
  return { pieces, turn };
}
