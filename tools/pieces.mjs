// Writes web/img/pieces.svg, the one sprite of Parlor's piece drawings (the web board and the server's PNG
// renderer both read that file). Run `node tools/pieces.mjs` after changing a shape here; commit both files.
// Plain SVG 1.1 shapes only (path, circle, rect, polygon; fill/stroke attributes; currentColor) so resvg draws them.
import { writeFileSync } from 'node:fs';

const W = 3; // outline width in the 100x100 box
const shapes = {
  P: (c) => `<circle cx="50" cy="30" r="12" ${c.body}/><path d="M35 80 Q37 60 44 48 L56 48 Q63 60 65 80 Z" ${c.body}/><rect x="38" y="44" width="24" height="7" rx="3" ${c.body}/><rect x="25" y="78" width="50" height="11" rx="3" ${c.body}/>`,
  R: (c) => `<path d="M31 80 L34 42 L66 42 L69 80 Z" ${c.body}/><path d="M27 42 L27 18 L37 18 L37 26 L45 26 L45 18 L55 18 L55 26 L63 26 L63 18 L73 18 L73 42 Z" ${c.body}/><path d="M34 50 L66 50" ${c.detail}/><rect x="22" y="78" width="56" height="11" rx="3" ${c.body}/>`,
  B: (c) => `<path d="M35 80 Q39 68 43 60 L57 60 Q61 68 65 80 Z" ${c.body}/><path d="M50 18 C66 30 67 46 58 60 L42 60 C33 46 34 30 50 18 Z" ${c.body}/><circle cx="50" cy="14" r="5.5" ${c.body}/><path d="M55 31 L45 44" ${c.detail}/><rect x="24" y="78" width="52" height="11" rx="3" ${c.body}/>`,
  N: (c) => `<path d="M31 80 L35 64 Q39 53 50 47 Q41 45 35 49 L28 53 Q20 51 23 44 L39 27 Q43 19 51 16 L54 8 L59 17 Q75 23 73 50 Q72 66 71 80 Z" ${c.body}/><circle cx="45" cy="30" r="3" ${c.eye}/><path d="M60 26 Q67 40 64 60" ${c.detail}/><rect x="24" y="78" width="52" height="11" rx="3" ${c.body}/>`,
  Q: (c) => `<path d="M28 80 L20 35 L34 58 L35 27 L44 56 L50 22 L56 56 L65 27 L66 58 L80 35 L72 80 Z" ${c.body}/><circle cx="20" cy="33" r="5" ${c.body}/><circle cx="35" cy="25" r="5" ${c.body}/><circle cx="50" cy="19" r="5" ${c.body}/><circle cx="65" cy="25" r="5" ${c.body}/><circle cx="80" cy="33" r="5" ${c.body}/><path d="M30 68 Q50 62 70 68" ${c.detail}/><rect x="22" y="78" width="56" height="11" rx="3" ${c.body}/>`,
  K: (c) => `<rect x="46.5" y="6" width="7" height="24" rx="1" ${c.body}/><rect x="40" y="12" width="20" height="7" rx="1" ${c.body}/><path d="M41 48 Q41 35 50 30 Q59 35 59 48 Z" ${c.body}/><path d="M28 80 Q22 58 29 47 Q40 40 50 49 Q60 40 71 47 Q78 58 72 80 Z" ${c.body}/><path d="M30 66 Q50 59 70 66" ${c.detail}/><rect x="22" y="78" width="56" height="11" rx="3" ${c.body}/>`,
};

const style = (fill, line, detail) => ({
  body: `fill="${fill}" stroke="${line}" stroke-width="${W}" stroke-linejoin="round"`,
  detail: `fill="none" stroke="${detail}" stroke-width="${W}" stroke-linecap="round"`,
  eye: `fill="${detail}"`,
});
const white = style('#fafafa', '#1e1e1e', '#1e1e1e');
const black = style('#2b2b2b', '#0d0d0d', '#e6e6e6');
const army = style('currentColor', '#1e1e1e', '#1e1e1e');

const sym = (id, body) => `  <symbol id="${id}" viewBox="0 0 100 100">${body}</symbol>`;
const out = [];
for (const role of 'KQRBNP') out.push(sym('w' + role, shapes[role](white)));
for (const role of 'KQRBNP') out.push(sym('b' + role, shapes[role](black)));
for (const role of 'KQRBNP') out.push(sym('army-' + role, shapes[role](army)));

const man = (fill, line, ring) => `<circle cx="50" cy="53" r="38" fill="${line}"/><circle cx="50" cy="48" r="38" fill="${fill}" stroke="${line}" stroke-width="${W}"/><circle cx="50" cy="48" r="27" fill="none" stroke="${ring}" stroke-width="${W}"/><circle cx="50" cy="48" r="17" fill="none" stroke="${ring}" stroke-width="2"/>`;
const crown = '<path d="M31 58 L28 34 L40 46 L50 29 L60 46 L72 34 L69 58 Z" fill="#e8b730" stroke="#5a3d00" stroke-width="3" stroke-linejoin="round"/><circle cx="28" cy="33" r="4" fill="#e8b730" stroke="#5a3d00" stroke-width="2"/><circle cx="50" cy="28" r="4" fill="#e8b730" stroke="#5a3d00" stroke-width="2"/><circle cx="72" cy="33" r="4" fill="#e8b730" stroke="#5a3d00" stroke-width="2"/>';
out.push(sym('man-white', man('#f3eee2', '#3a3a3a', '#b9b2a2')));
out.push(sym('man-black', man('#2a2a2a', '#050505', '#6a6a6a')));
out.push(sym('king-white', man('#f3eee2', '#3a3a3a', '#b9b2a2') + crown));
out.push(sym('king-black', man('#2a2a2a', '#050505', '#6a6a6a') + crown));

// Owner marks of four-player armies, so colour is never needed: red ●, blue ▲, yellow ■, green ◆.
const mark = 'fill="#111" stroke="#fff" stroke-width="8" stroke-linejoin="round"';
out.push(sym('mark-red', `<circle cx="50" cy="50" r="38" ${mark}/>`));
out.push(sym('mark-blue', `<polygon points="50,10 92,86 8,86" ${mark}/>`));
out.push(sym('mark-yellow', `<rect x="14" y="14" width="72" height="72" ${mark}/>`));
out.push(sym('mark-green', `<polygon points="50,6 94,50 50,94 6,50" ${mark}/>`));

const svg = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Parlor's pieces (AGPL-3.0-or-later). Written by tools/pieces.mjs; one symbol per piece, 100x100 each.
     Chess: wK..wP, bK..bP. Four-player: army-K..army-P drawn in currentColor (red #d8473d, blue #3f7fd9,
     yellow #e3b91f, green #3f9e4a, grey #9a9a9a for eliminated armies) with mark-red/blue/yellow/green.
     Draughts: man-white, man-black, king-white, king-black. -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1">
${out.join('\n')}
</svg>
`;
writeFileSync(new URL('../web/img/pieces.svg', import.meta.url), svg);
