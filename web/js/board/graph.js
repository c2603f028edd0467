// The review's evaluation graph (SVG, as wide as its box): the first player's winning chances, or each army's
// points in its colour; a click goes to a ply, a vertical line marks the one shown.

import { s } from '../dom.js';
import { chancePoints, splitAtMiddle, armyLines, pathOf, plyAt, plyX } from '../review-model.js';
import { ARMY_COLOURS } from './render.js';
import { ARMIES } from './geometry.js';

const W = 600;
const H = 120;

export class EvalGraph {
  /** A review's graph; opts {label (its accessible name), onPly(ply)}. */
  constructor(review, opts) {
    this.count = review.positions.length;
    this.svg = s('svg', { id: 'review-graph', class: 'review-graph', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none',
      role: 'img', 'aria-label': opts.label, 'data-plies': this.count - 1 });
    if (review.game === 'chess4') {
      const { lines, zero } = armyLines(review.positions, W, H);
      this.svg.appendChild(s('line', { x1: 0, y1: zero, x2: W, y2: zero, class: 'graph-mid' }));
      lines.forEach((pts, seat) => this.svg.appendChild(s('path', { d: pathOf(pts), class: 'graph-line', 'data-seat': seat,
        stroke: ARMY_COLOURS[ARMIES[seat]] })));
    } else {
      const pts = chancePoints(review.positions, W, H);
      const { above, below } = splitAtMiddle(pts, H / 2);
      this.svg.appendChild(s('rect', { width: W, height: H, class: 'graph-bg' }));
      this.svg.appendChild(s('path', { d: pathOf(above, true), class: 'graph-above' }));
      this.svg.appendChild(s('path', { d: pathOf(below, true), class: 'graph-below' }));
      this.svg.appendChild(s('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }));
      this.svg.appendChild(s('path', { d: pathOf(pts), class: 'graph-line' }));
    }
    this.cursor = s('line', { x1: 0, y1: 0, x2: 0, y2: H, class: 'graph-cursor' });
    this.svg.appendChild(this.cursor);
    this.svg.addEventListener('click', (e) => {
      const box = this.svg.getBoundingClientRect();
      if (box.width > 0) opts.onPly(plyAt(((e.clientX - box.left) * W) / box.width, W, this.count));
    });
  }

  /** Mark the ply shown. */
  show(ply) {
    const x = Math.round(plyX(ply, W, this.count) * 10) / 10;
    this.cursor.setAttribute('x1', x);
    this.cursor.setAttribute('x2', x);
    this.cursor.setAttribute('data-ply', ply);
  }
}
