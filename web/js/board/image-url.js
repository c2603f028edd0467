// Links to the server's pictures of positions (/image/{game}.png, crates/image), and a replay's piece map written
// back as position text for them. Pure, no DOM.

import { boardOf, draughtsColour, key, pdnNumber, squareName } from './geometry.js';

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
