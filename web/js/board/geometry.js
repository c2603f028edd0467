// Board geometry for the three boards: which squares exist, how the board turns for each seat, square names and
// draughts numbering; below, positions read from their text (FEN, PDN FEN, FEN4) and the position image's address.
// Pure functions, no DOM (tested with `node --test`). Coordinates are the protocol's [file, rank], 0-based from
// the bottom-left of the game's standard diagram (docs/protocol.md).

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

// Reading the server's position text for display: FEN (chess), PDN FEN (draughts) and FEN4 (four-player). This is
// drawing, not rules: legal moves always come from the server. Pure, no DOM.

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

// Links to the server's pictures of positions (/image/{game}.png, crates/image), and a replay's piece map written
// back as position text for them. Pure, no DOM.

const SIDES = { chess: ['white', , 'black'], draughts: ['white', , 'black'], chess4: ['red', 'blue', 'yellow', 'green'] };

/** PNG URL of a position text (FEN, PDN FEN, FEN4), turned by quarter turns `q`, with the last move {from, to}. */
export function imageUrl(game, text, q = 0, last = null) {
  const b = boardOf(game);
  const p = new URLSearchParams();
  if (b.family === 'draughts') p.set('variant', String(game).split('/')[1] || 'english');
  p.set(b.family === 'chess4' ? 'fen4' : 'fen', text);
  const side = SIDES[b.family][q % 4];
  if (side) p.set('orientation', side);
  if (last) p.set('lastmove', b.family === 'draughts' ? pdnNumber(b, ...last.from) + '-' + pdnNumber(b, ...last.to) : squareName(...last.from) + squareName(...last.to));
  return `/image/${b.family}.png?${p}`;
}

/** Position text of a piece map (replay view) with `turn` (a colour's seat) to move. */
export function positionText(game, pieces, turn) {
  const b = boardOf(game);
  const at = (f, r) => pieces.get(key(f, r));
  if (b.family === 'draughts') {
    const list = { w: [], b: [] };
    for (const [k, p] of pieces) list[p.colour].push((p.role === 'K' ? 'K' : '') + pdnNumber(b, ...k.split(',').map(Number)));
    return `${draughtsColour(game, turn).toUpperCase()}:W${list.w}:B${list.b}`;
  }
  const four = b.family === 'chess4';
  const live = [0, 1, 2, 3].map((s) => [...pieces.values()].some((p) => p.seat === s && p.role === 'K'));
  const rows = [];
  for (let r = b.size - 1; r >= 0; r--) {
    const cells = [];
    let empty = 0;
    for (let f = 0; f < b.size; f++) {
      const p = at(f, r);
      if (!p) { empty++; continue; }
      if (empty) cells.push(empty);
      empty = 0;
      cells.push(four ? (live[p.seat] ? 'rbyg'[p.seat] : 'd') + p.role : p.colour === 'w' ? p.role : p.role.toLowerCase());
    }
    if (empty) cells.push(empty);
    rows.push(cells.join(four ? ',' : ''));
  }
  if (!four) return `${rows.join('/')} ${turn ? 'b' : 'w'} - - 0 1`;
  let s = turn;
  for (let i = 0; i < 4 && !live[s]; i++) s = (s + 1) % 4;
  return `${'RBYG'[s]}-${live.map((l) => (l ? 0 : 1))}-0,0,0,0-0,0,0,0-0,0,0,0-0-${rows.join('/')}`;
}
