// Board geometry for the three boards: which squares exist, how the board turns for each seat, square names and
// draughts numbering. Pure functions, no DOM (tested with `node --test`). Coordinates are the protocol's
// [file, rank], 0-based from the bottom-left of the game's standard diagram (docs/protocol.md).

/** The board family of a game name from a TableSpec (`chess`, `draughts/english`, `chess4` ...). */
export function familyOf(game) {
  if (game === 'chess4') return 'chess4';
  if (String(game).startsWith('draughts')) return 'draughts';
  return 'chess';
}

/** Board description: size, family, number of seats. International draughts is 10x10, other draughts 8x8. */
export function boardOf(game) {
  const family = familyOf(game);
  if (family === 'chess4') return { family, size: 14, seats: 4, game };
  if (family === 'draughts') return { family, size: game === 'draughts/international' ? 10 : 8, seats: 2, game };
  return { family, size: 8, seats: 2, game };
}

/** Whether a square exists and can hold a piece: every chess square, the dark draughts squares (a1 is dark),
 * the 14x14 cross without its 3x3 corners. */
export function isPlayable(board, f, r) {
  const n = board.size;
  if (f < 0 || r < 0 || f >= n || r >= n) return false;
  if (board.family === 'draughts') return (f + r) % 2 === 0;
  if (board.family === 'chess4') {
    const edge = (v) => v < 3 || v > n - 4;
    return !(edge(f) && edge(r));
  }
  return true;
}

/** Whether a square is drawn dark. */
export function isDark(f, r) {
  return (f + r) % 2 === 0;
}

/** All existing squares as [file, rank]. */
export function squares(board) {
  const out = [];
  for (let r = 0; r < board.size; r++) for (let f = 0; f < board.size; f++) if (isPlayable(board, f, r)) out.push([f, r]);
  return out;
}

/** Which side of the standard diagram each seat plays from, as quarter turns of the board (counter-clockwise)
 * that bring it to the bottom. Chess: White (seat 0) at the bottom, Black turned 180 degrees. Draughts: the diagram
 * has White at the bottom; seat 0 is the side that moves first (Black in English and Pool checkers). Four-player:
 * Red bottom (0), Blue left (1), Yellow top (2), Green right (3). Spectators see the standard diagram. */
export function quarterTurns(game, seat) {
  if (seat === null || seat === undefined) return 0;
  const family = familyOf(game);
  if (family === 'chess4') return seat % 4;
  if (family === 'draughts') {
    const blackFirst = game === 'draughts/english' || game === 'draughts/pool' || game === 'draughts';
    const white = blackFirst ? seat === 1 : seat === 0;
    return white ? 0 : 2;
  }
  return seat === 0 ? 0 : 2;
}

/** The colour a draughts seat plays: 'w' or 'b'. */
export function draughtsColour(game, seat) {
  return quarterTurns(game, seat) === 0 ? 'w' : 'b';
}

/** Where a square is drawn: [column from the left, row from the top] on screen, for a board turned by `q`. */
export function toView(board, q, f, r) {
  const m = board.size - 1;
  let x;
  let y; // y counted from the bottom first
  switch (((q % 4) + 4) % 4) {
    case 1: x = m - r; y = f; break; // left side (file a) at the bottom
    case 2: x = m - f; y = m - r; break;
    case 3: x = r; y = m - f; break; // right side at the bottom
    default: x = f; y = r;
  }
  return [x, m - y];
}

/** The square drawn at screen column `x`, row `y` (from the top): the inverse of toView. */
export function fromView(board, q, x, y) {
  const m = board.size - 1;
  const yb = m - y;
  switch (((q % 4) + 4) % 4) {
    case 1: return [yb, m - x];
    case 2: return [m - x, m - yb];
    case 3: return [m - yb, x];
    default: return [x, yb];
  }
}

const FILES = 'abcdefghijklmn';

/** Algebraic square name: a1 ... h8 (chess), a1 ... n14 (four-player), a1 ... j10 (draughts, for labels). */
export function squareName(f, r) {
  return FILES[f] + String(r + 1);
}

/** Parse an algebraic square name; null if it is not one. */
export function parseSquare(board, s) {
  const m = /^([a-n])(\d{1,2})$/.exec(String(s).toLowerCase());
  if (!m) return null;
  const f = FILES.indexOf(m[1]);
  const r = Number(m[2]) - 1;
  return isPlayable(board, f, r) ? [f, r] : null;
}

/** PDN square number of a draughts square, null for a light square. Square 1 is on the top row at b8 (b10 on
 * 10x10); numbers run left to right, top to bottom; the last square (32 or 50) is on the bottom row. */
export function pdnNumber(board, f, r) {
  const n = board.size;
  if (!isPlayable(board, f, r)) return null;
  const row = n - 1 - r; // from the top
  const k = (f - (row % 2 === 0 ? 1 : 0)) / 2;
  return row * (n / 2) + k + 1;
}

/** The square of a PDN number, null if out of range. */
export function pdnSquare(board, num) {
  const n = board.size;
  const half = n / 2;
  if (!Number.isInteger(num) || num < 1 || num > half * n) return null;
  const row = Math.floor((num - 1) / half);
  const k = (num - 1) % half;
  return [2 * k + (row % 2 === 0 ? 1 : 0), n - 1 - row];
}

/** Labels for the board's edge: for each screen column its file letter and for each screen row its rank number,
 * as the board is turned. Draughts shows its square numbers inside the squares instead. */
export function edgeLabels(board, q) {
  const n = board.size;
  const cols = [];
  const rows = [];
  for (let x = 0; x < n; x++) {
    const [f, r] = fromView(board, q, x, n - 1);
    cols.push(q % 2 === 0 ? FILES[f] : String(r + 1));
  }
  for (let y = 0; y < n; y++) {
    const [f, r] = fromView(board, q, 0, y);
    rows.push(q % 2 === 0 ? String(r + 1) : FILES[f]);
  }
  return { cols, rows };
}

/** Key of a square for maps. */
export function key(f, r) {
  return f + ',' + r;
}

/** The square an arrow key leads to from `sq`, as the board is drawn (turned by `q`): `dx`, `dy` one screen column
 * or row (-1 or 1, `dy` down). Missing squares are passed over: the cross's corners, and on a draughts board the
 * light squares (up and down go to the nearest dark square of the next row, right first). At the edge it stays. */
export function stepView(board, q, sq, dx, dy) {
  const [x, y] = toView(board, q, sq[0], sq[1]);
  const sideways = dy !== 0 && board.family === 'draughts' ? [0, 1, -1] : [0];
  for (let k = 1; k < board.size; k++) {
    for (const off of sideways) {
      const vx = x + dx * k + off;
      const vy = y + dy * k;
      if (vx < 0 || vy < 0 || vx >= board.size || vy >= board.size) continue;
      const next = fromView(board, q, vx, vy);
      if (isPlayable(board, next[0], next[1])) return next;
    }
  }
  return sq;
}
