// The board as SVG: one renderer for 8x8, 10x10 (dark squares) and the 14x14 cross, turned so the viewer's seat
// is at the bottom, with coordinates on the edge, last move, check, selection and legal destinations. Input
// (click-click and drag, mouse and touch) goes through the pure state machine in state.js; the board reports a
// chosen wire move and knows no rules. The keyboard works it too: one square at a time takes the focus (Tab
// reaches the board, arrow keys move over the squares as drawn, Enter or Space selects and moves, Escape cancels),
// and each square is read out by its label (square, piece).

import { s, h, clear, pieceIcon } from '../dom.js';
import { boardOf, squares, toView, fromView, isDark, isPlayable, squareName, pdnNumber, edgeLabels, key, stepView, parsePosition, ARMIES } from './geometry.js';
import * as input from './state.js';
import { t } from '../i18n/index.js';

const SQ = 100; // one square in SVG units
const MARGIN = 34; // room for coordinates on the left and bottom edges
export const ARMY_COLOURS = { red: '#d8473d', blue: '#3f7fd9', yellow: '#e3b91f', green: '#3f9e4a', grey: '#9a9a9a' };

export class Board {
  /**
   * @param {HTMLElement} host where the board goes
   * @param {object} opts {game, onMove(wire), onSelect(squareName|null)}
   */
  constructor(host, opts) {
    this.host = host;
    this.opts = opts;
    this.board = boardOf(opts.game);
    this.q = 0;
    this.legal = [];
    this.showLegal = true;
    this.interactive = false;
    this.state = input.idle();
    this.pieces = new Map();
    this.eliminated = [];
    this.last = null;
    this.armyLast = [];
    this.check = [];
    this.arrows = [];
    this.drag = null;
    this.cursor = null;
    // A premove: while it is not the player's turn, a piece of `premoveFor` (a colour index) and a square make the
    // planned move, kept until the table plays it (or finds it impossible) on the player's turn; a click cancels it.
    this.premoveFor = null;
    this.pre = { from: null, move: null };
    const n = this.board.size;
    const size = n * SQ;
    // Draughts shows its square numbers inside the squares, so it needs no edge margin.
    this.margin = this.board.family === 'draughts' ? 0 : MARGIN;
    this.svg = s('svg', { class: 'board', viewBox: `${-this.margin} 0 ${size + this.margin} ${size + this.margin}`, role: 'group',
      'aria-label': t('table.board'), 'data-game': opts.game, 'data-size': n });
    this.layers = {};
    for (const name of ['squares', 'marks', 'labels', 'pieces', 'nums', 'dests', 'drag']) {
      this.layers[name] = s('g', { class: 'layer-' + name });
      this.svg.appendChild(this.layers[name]);
    }
    this.wrap = h('div', { class: 'board-wrap' }, this.svg);
    this.chooser = h('div', { class: 'chooser', hidden: true, role: 'dialog' });
    this.wrap.appendChild(this.chooser);
    host.appendChild(this.wrap);
    this.svg.addEventListener('pointerdown', (e) => this.down(e));
    this.svg.addEventListener('pointermove', (e) => this.moveDrag(e));
    this.svg.addEventListener('pointerup', (e) => this.up(e));
    this.svg.addEventListener('pointercancel', () => this.endDrag());
    this.svg.addEventListener('contextmenu', (e) => e.preventDefault());
    this.svg.addEventListener('keydown', (e) => this.key(e));
    this.svg.addEventListener('focusin', (e) => {
      const name = e.target.getAttribute && e.target.getAttribute('data-square');
      if (name) { this.cursor = this.sqOf(name); this.drawMarks(); }
    });
    this.svg.addEventListener('focusout', () => this.drawMarks());
  }

  /** Update what is shown. Fields: position, legal, premoveFor (the colour whose pieces may plan a move while
   * the board takes none, or null), last {from,to}, armyLast (four-player: [{colour, from, to,
   * newest}], each army's latest move, drawn in its colour with its shape mark instead of the one last move),
   * check, arrows ([{from, to}]: the engine's best move, drawn as an arrow), quarterTurns, showLegal, interactive,
   * eliminated, animate (bool). */
  set(v) {
    const turned = v.quarterTurns !== undefined && v.quarterTurns !== this.q;
    if (v.quarterTurns !== undefined) this.q = v.quarterTurns;
    const oldPieces = this.pieces;
    if (v.position !== undefined) this.pieces = parsePosition(this.opts.game, v.position).pieces;
    if (v.legal !== undefined) {
      this.legal = v.legal || [];
      this.state = input.refresh(this.state, this.legal);
    }
    if (v.last !== undefined) this.last = v.last;
    if (v.armyLast !== undefined) this.armyLast = v.armyLast || [];
    if (v.check !== undefined) this.check = v.check || [];
    if (v.arrows !== undefined) this.arrows = v.arrows || [];
    if (v.showLegal !== undefined) this.showLegal = v.showLegal;
    if (v.interactive !== undefined) this.interactive = v.interactive;
    if (v.eliminated !== undefined) this.eliminated = v.eliminated || [];
    if (v.premoveFor !== undefined) {
      this.premoveFor = v.premoveFor;
      if (v.premoveFor === null) this.pre.from = null;
    }
    if (!this.interactive) this.state = input.idle();
    this.drawSquares(turned || !this.layers.squares.firstChild);
    this.updateFocus();
    this.drawMarks();
    this.drawPieces(v.animate && this.last ? { from: this.last.from, to: this.last.to, old: oldPieces } : null);
    this.drawDests();
    this.drawChooser();
  }

  xy(f, r) {
    const [x, y] = toView(this.board, this.q, f, r);
    return [x * SQ, y * SQ];
  }

  pieceName(p) {
    if (p.seat !== undefined && this.board.family === 'chess4') {
      const army = this.armyOf(p);
      return t('piece.army', { army: t(army === 'grey' ? 'seat.grey' : 'seat.chess4.' + ARMIES.indexOf(army)), role: t('role.' + p.role) });
    }
    return t('piece.' + p.sprite);
  }

  armyOf(p) {
    if (p.seat === null || p.seat === undefined) return 'grey';
    return this.eliminated[p.seat] ? 'grey' : ARMIES[p.seat];
  }

  drawSquares(rebuild) {
    if (!rebuild) { this.updateLabels(); return; }
    const hadFocus = this.svg.contains(document.activeElement);
    const g = clear(this.layers.squares);
    const labels = clear(this.layers.labels);
    // Draughts square numbers sit above the pieces (a man never hides its square's number), outlined to be read
    // on any square or piece.
    const nums = clear(this.layers.nums);
    const n = this.board.size;
    for (const [f, r] of squares(this.board)) {
      const [x, y] = this.xy(f, r);
      const name = squareName(f, r);
      const rect = s('rect', { x, y, width: SQ, height: SQ, class: isDark(f, r) ? 'sq dark' : 'sq light', 'data-square': name, role: 'button', tabindex: '-1' });
      g.appendChild(rect);
      if (this.board.family === 'draughts') {
        nums.appendChild(s('text', { x: x + 4, y: y + 20, class: 'num' }, String(pdnNumber(this.board, f, r))));
      }
    }
    if (this.board.family === 'draughts') {
      // Light squares are drawn too, plain, so the board reads as a checkerboard.
      for (let r = 0; r < n; r++) for (let f = 0; f < n; f++) {
        if (isPlayable(this.board, f, r)) continue;
        const [x, y] = this.xy(f, r);
        g.insertBefore(s('rect', { x, y, width: SQ, height: SQ, class: 'sq light' }), g.firstChild);
      }
    } else {
      const { cols, rows } = edgeLabels(this.board, this.q);
      cols.forEach((c, i) => labels.appendChild(s('text', { x: i * SQ + SQ / 2, y: n * SQ + 26, class: 'coord', 'text-anchor': 'middle' }, c)));
      rows.forEach((c, i) => labels.appendChild(s('text', { x: -MARGIN / 2, y: i * SQ + SQ / 2 + 8, class: 'coord', 'text-anchor': 'middle' }, c)));
    }
    this.updateLabels();
    if (hadFocus) this.focusCursor();
  }

  /** The square the keyboard is on: where it last was, else the first piece that can move, else the bottom-left
   * square as drawn. Exactly one square is in the Tab order. */
  updateFocus() {
    if (!this.cursor || !isPlayable(this.board, this.cursor[0], this.cursor[1])) {
      const n = this.board.size;
      this.cursor = this.legal.length ? this.legal[0].from : null;
      for (let x = 0; !this.cursor && x < n; x++) {
        const sq = fromView(this.board, this.q, x, n - 1);
        if (isPlayable(this.board, sq[0], sq[1])) this.cursor = sq;
        else {
          const up = stepView(this.board, this.q, sq, 0, -1);
          if (isPlayable(this.board, up[0], up[1]) && (up[0] !== sq[0] || up[1] !== sq[1])) this.cursor = up;
        }
      }
    }
    const name = squareName(this.cursor[0], this.cursor[1]);
    for (const rect of this.layers.squares.querySelectorAll('rect[data-square]')) {
      rect.setAttribute('tabindex', rect.getAttribute('data-square') === name ? '0' : '-1');
    }
  }

  focusCursor() {
    const rect = this.cursor && this.layers.squares.querySelector(`rect[data-square="${squareName(this.cursor[0], this.cursor[1])}"]`);
    if (rect) rect.focus();
  }

  key(e) {
    const arrows = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (!this.cursor) return;
    if (arrows[e.key]) {
      e.preventDefault();
      this.cursor = stepView(this.board, this.q, this.cursor, ...arrows[e.key]);
      this.updateFocus();
      this.focusCursor();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (this.interactive) this.apply(input.click(this.state, this.legal, this.cursor));
      else if (this.premoveFor !== null || this.pre.move) this.premoveClick(this.cursor);
    } else if (e.key === 'Escape' && (this.state.selected || this.state.pending)) {
      e.preventDefault();
      this.apply({ state: input.cancel(), play: null });
    }
  }

  updateLabels() {
    for (const rect of this.layers.squares.querySelectorAll('rect[data-square]')) {
      const name = rect.getAttribute('data-square');
      const sq = this.sqOf(name);
      const p = this.pieces.get(key(sq[0], sq[1]));
      rect.setAttribute('aria-label', p ? t('square.piece', { sq: name, piece: this.pieceName(p) }) : t('square.empty', { sq: name }));
    }
  }

  sqOf(name) {
    const f = name.charCodeAt(0) - 97;
    return [f, Number(name.slice(1)) - 1];
  }

  drawMarks() {
    const g = clear(this.layers.marks);
    const mark = (sq, cls) => {
      const [x, y] = this.xy(sq[0], sq[1]);
      g.appendChild(s('rect', { x, y, width: SQ, height: SQ, class: cls }));
    };
    if (this.board.family === 'chess4' && this.armyLast.length) {
      // Every army's latest move stays marked until it moves again: the square it left outlined, the square it
      // reached tinted, both in the army's colour, with its shape in the corner the piece's own mark leaves free.
      for (const a of this.armyLast) {
        const army = ARMIES[a.colour];
        const colour = ARMY_COLOURS[army];
        const cls = 'mark-army' + (a.newest ? ' newest' : '');
        const [fx, fy] = this.xy(a.from[0], a.from[1]);
        g.appendChild(s('rect', { x: fx + 4, y: fy + 4, width: SQ - 8, height: SQ - 8, class: cls + ' from', stroke: colour, 'data-army': army, 'data-mark-square': squareName(...a.from) }));
        const [tx, ty] = this.xy(a.to[0], a.to[1]);
        g.appendChild(s('rect', { x: tx, y: ty, width: SQ, height: SQ, class: cls + ' to', fill: colour, stroke: colour, 'data-army': army, 'data-mark-square': squareName(...a.to) }));
        g.appendChild(s('use', { href: '#mark-' + army, x: tx + 4, y: ty + 4, width: 24, height: 24, class: 'mark-army-shape', style: `color:${colour}` }));
      }
    } else if (this.last) {
      mark(this.last.from, 'mark-last');
      mark(this.last.to, 'mark-last');
    }
    for (const c of this.check) {
      const [x, y] = this.xy(c[0], c[1]);
      g.appendChild(s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.48, class: 'mark-check' }));
    }
    for (const a of this.arrows) g.appendChild(this.arrowEl(a));
    if (this.state.selected) mark(this.state.selected, 'mark-selected');
    if (this.pre.from) mark(this.pre.from, 'mark-premove');
    if (this.pre.move) { mark(this.pre.move.from, 'mark-premove'); mark(this.pre.move.to, 'mark-premove'); }
    const focused = this.svg.contains(document.activeElement) && document.activeElement.matches(':focus-visible');
    if (this.cursor && focused) {
      const [x, y] = this.xy(this.cursor[0], this.cursor[1]);
      g.appendChild(s('rect', { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: 'mark-cursor' }));
    }
  }

  /** An arrow from the centre of a move's first square to the centre of its last, its head ending on it. */
  arrowEl(a) {
    const [fx, fy] = this.xy(a.from[0], a.from[1]);
    const [tx, ty] = this.xy(a.to[0], a.to[1]);
    const x1 = fx + SQ / 2;
    const y1 = fy + SQ / 2;
    const x2 = tx + SQ / 2;
    const y2 = ty + SQ / 2;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    const head = 34;
    const [bx, by] = [x2 - ux * head, y2 - uy * head];
    const r = (v) => Math.round(v * 10) / 10;
    return s('g', { class: 'best-arrow', 'data-from': squareName(...a.from), 'data-to': squareName(...a.to) },
      s('line', { x1: r(x1), y1: r(y1), x2: r(bx), y2: r(by) }),
      s('polygon', { points: [[x2, y2], [bx - uy * 22, by + ux * 22], [bx + uy * 22, by - ux * 22]].map((p) => p.map(r).join(',')).join(' ') }));
  }

  drawPieces(anim) {
    const g = clear(this.layers.pieces);
    this.updateLabels();
    for (const [k, p] of this.pieces) {
      const [f, r] = k.split(',').map(Number);
      if (this.drag && this.drag.moved && this.drag.from[0] === f && this.drag.from[1] === r) continue;
      const [x, y] = this.xy(f, r);
      const el = this.pieceEl(p, x, y);
      g.appendChild(el);
      if (anim && anim.to[0] === f && anim.to[1] === r && typeof el.animate === 'function') {
        const [fx, fy] = this.xy(anim.from[0], anim.from[1]);
        const dx = fx - x;
        const dy = fy - y;
        // Scale the SVG offsets to screen pixels for the CSS transform.
        const scale = this.svg.getBoundingClientRect().width / (this.board.size * SQ + this.margin) || 1;
        el.animate([{ transform: `translate(${dx * scale}px, ${dy * scale}px)` }, { transform: 'translate(0,0)' }],
          { duration: 180, easing: 'ease-out' });
      }
    }
  }

  pieceEl(p, x, y) {
    const grp = s('g', { class: 'piece', 'data-piece': p.sprite });
    if (this.board.family === 'chess4') {
      const army = this.armyOf(p);
      grp.style.color = ARMY_COLOURS[army];
      grp.setAttribute('data-army', army);
      grp.appendChild(s('use', { href: '#' + p.sprite, x: x + 4, y: y + 4, width: SQ - 8, height: SQ - 8 }));
      if (p.seat !== null && p.seat !== undefined) {
        grp.appendChild(s('use', { href: '#mark-' + ARMIES[p.seat], x: x + SQ - 34, y: y + SQ - 34, width: 28, height: 28 }));
      }
    } else {
      grp.appendChild(s('use', { href: '#' + p.sprite, x: x + 5, y: y + 5, width: SQ - 10, height: SQ - 10 }));
    }
    return grp;
  }

  drawDests() {
    const g = clear(this.layers.dests);
    if (!this.showLegal || !this.state.selected) return;
    for (const d of this.state.dests) {
      const [x, y] = this.xy(d[0], d[1]);
      const occupied = this.pieces.has(key(d[0], d[1]));
      g.appendChild(occupied
        ? s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.44, class: 'dest dest-capture', 'data-dest': squareName(d[0], d[1]) })
        : s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.15, class: 'dest', 'data-dest': squareName(d[0], d[1]) }));
    }
  }

  drawChooser() {
    const p = this.state.pending;
    const c = clear(this.chooser);
    c.hidden = !p;
    if (!p) return;
    c.setAttribute('aria-label', t(p.kind === 'promotion' ? 'table.promotion' : 'table.path'));
    c.appendChild(h('p', { class: 'chooser-title' }, t(p.kind === 'promotion' ? 'table.promotion' : 'table.path')));
    const row = h('div', { class: 'chooser-row' });
    for (const m of p.options) {
      let label;
      let icon = null;
      if (p.kind === 'promotion') {
        const mover = this.pieces.get(key(p.from[0], p.from[1]));
        const role = m.promotion.toUpperCase();
        const sprite = this.board.family === 'chess4' ? 'army-' + role : (mover ? mover.colour : 'w') + role;
        label = this.board.family === 'chess4' ? t('role.' + role) : t('piece.' + sprite);
        icon = pieceIcon(sprite, mover && this.board.family === 'chess4' ? ARMY_COLOURS[this.armyOf(mover)] : null, 44);
      } else {
        const path = (m.path && m.path.length ? m.path : [m.to]).map((sq) => this.board.family === 'draughts' ? String(pdnNumber(this.board, sq[0], sq[1])) : squareName(sq[0], sq[1]));
        const caps = (m.captures || []).map((sq) => this.board.family === 'draughts' ? String(pdnNumber(this.board, sq[0], sq[1])) : squareName(sq[0], sq[1]));
        label = t('table.path_option', { squares: path.join(' → ') }) + (caps.length ? ` (×${caps.join(', ')})` : '');
      }
      row.appendChild(h('button', { type: 'button', class: 'choice', 'data-wire': m.wire, 'data-promo': m.promotion || null, 'aria-label': label,
        onclick: () => this.apply(input.choose(this.state, m.wire)) }, icon || label));
    }
    c.appendChild(row);
    c.appendChild(h('button', { type: 'button', class: 'link', onclick: () => this.apply({ state: input.cancel(), play: null }) }, t('common.cancel')));
    const first = c.querySelector('button');
    if (first) first.focus();
  }

  /** Apply a state-machine result: redraw and report a move. */
  apply(res) {
    this.state = res.state;
    this.drawMarks();
    this.drawDests();
    this.drawChooser();
    if (res.play) this.showPlayed(res.play);
    if (res.play && this.opts.onMove) this.opts.onMove(res.play);
    else if (this.opts.onSelect) this.opts.onSelect(this.state.selected ? squareName(...this.state.selected) : null);
  }

  /** Show a chosen move at once, before the server confirms it (the next position from the server replaces it). */
  showPlayed(wire) {
    const m = this.legal.find((x) => x.wire === wire);
    if (!m) return;
    const p = this.pieces.get(key(m.from[0], m.from[1]));
    if (!p) return;
    const next = new Map(this.pieces);
    next.delete(key(m.from[0], m.from[1]));
    for (const c of m.captures || []) next.delete(key(c[0], c[1]));
    next.set(key(m.to[0], m.to[1]), p);
    this.pieces = next;
    this.legal = [];
    this.drawPieces(null);
  }

  /** Ask for a choice among moves found by typing (several matches). */
  choose(options) {
    if (!options.length) return;
    const m = options[0];
    const kind = options.every((o) => o.promotion) ? 'promotion' : 'path';
    this.state = { selected: m.from, dests: [], pending: { kind, from: m.from, to: m.to, options } };
    this.drawMarks();
    this.drawDests();
    this.drawChooser();
  }

  pointSquare(e) {
    const pt = this.svgPoint(e);
    const x = Math.floor(pt.x / SQ);
    const y = Math.floor(pt.y / SQ);
    const n = this.board.size;
    if (x < 0 || y < 0 || x >= n || y >= n) return null;
    const sq = fromView(this.board, this.q, x, y);
    return isPlayable(this.board, sq[0], sq[1]) ? sq : null;
  }

  svgPoint(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return { x: -1, y: -1 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  down(e) {
    if (e.button !== undefined && e.button > 0) return;
    if (!this.interactive) {
      if (this.premoveFor !== null || this.pre.move) { e.preventDefault(); this.premoveClick(this.pointSquare(e)); }
      return;
    }
    const sq = this.pointSquare(e);
    if (!sq) { this.apply({ state: input.cancel(), play: null }); return; }
    e.preventDefault();
    const sel = this.state.selected;
    const same = sel && sel[0] === sq[0] && sel[1] === sq[1];
    if (!this.state.pending && (same || (input.canSelect(this.legal, sq) && !this.isDest(sq)))) {
      if (!same) this.apply(input.dragStart(this.state, this.legal, sq));
      this.drag = { from: sq, start: this.svgPoint(e), moved: false, wasSelected: same, pointer: e.pointerId };
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
      return;
    }
    this.apply(input.click(this.state, this.legal, sq));
  }

  isDest(sq) {
    return this.state.selected && this.state.dests.some((d) => d[0] === sq[0] && d[1] === sq[1]);
  }

  moveDrag(e) {
    const d = this.drag;
    if (!d) return;
    const pt = this.svgPoint(e);
    if (!d.moved && Math.hypot(pt.x - d.start.x, pt.y - d.start.y) < 12) return;
    if (!d.moved) {
      d.moved = true;
      const p = this.pieces.get(key(d.from[0], d.from[1]));
      this.drawPieces(null);
      d.ghost = p ? this.pieceEl(p, 0, 0) : null;
      if (d.ghost) { d.ghost.classList.add('ghost'); this.layers.drag.appendChild(d.ghost); }
    }
    if (d.ghost) d.ghost.setAttribute('transform', `translate(${pt.x - SQ / 2} ${pt.y - SQ / 2})`);
  }

  up(e) {
    const d = this.drag;
    if (!d) return;
    const sq = this.pointSquare(e);
    this.endDrag();
    if (d.moved) {
      this.drawPieces(null);
      this.apply(sq ? input.drop(this.state, this.legal, sq) : { state: input.cancel(), play: null });
    } else if (d.wasSelected) {
      this.apply({ state: input.cancel(), play: null });
    }
  }

  endDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
  }

  /** A click while it is not the player's turn: pick one of their pieces, then where it goes. A click with a
   * planned move cancels it. */
  premoveClick(sq) {
    if (this.pre.move) { this.setPremove(null); return; }
    const p = sq && this.pieces.get(key(sq[0], sq[1]));
    const own = !!p && p.seat === this.premoveFor;
    const from = this.pre.from;
    if (!sq || (from && from[0] === sq[0] && from[1] === sq[1])) this.pre.from = null;
    else if (own || !from) this.pre.from = own ? sq : null;
    else { this.setPremove({ from, to: sq }); return; }
    this.drawMarks();
  }

  setPremove(move) {
    this.pre = { from: null, move };
    this.drawMarks();
    if (this.opts.onPremove) this.opts.onPremove(move);
  }

  /** The planned move, handed over once (the table plays it or says it cannot be played). */
  takePremove() {
    const m = this.pre.move;
    if (m) { this.pre = { from: null, move: null }; this.drawMarks(); }
    return m;
  }

  destroy() {
    this.wrap.remove();
  }
}
