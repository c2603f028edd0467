// The computer's review on the replay page, and what it shares with the analysis board: evaluations in words, best
// lines, the move list.

import { h, replace, clear, notation } from '../dom.js';
import { t, num } from '../i18n/index.js';
import { wireSquares, moveRows, turnOrder } from '../table-model.js';
import { familyOf } from '../board/geometry.js';
import { EvalGraph } from '../board/graph.js';
import { markSymbol, reviewPhase, signed, units } from '../review-model.js';
import { seatLabel } from './table.js';

const POLL_MS = 500;

/** A JSON request: resolves {status, body}; status 0 when the server could not be reached. */
export async function api(url, method = 'GET', body = undefined) {
  try {
    const res = await fetch(url, { method, headers: { accept: 'application/json', 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    return { status: res.status, body: await res.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

/** Fill a move list: a row per round, a column per colour, a button per move (`data-ply`) that calls go(ply). */
export function fillMoves(box, model, current, go) {
  clear(box);
  const order = turnOrder(model);
  box.style.setProperty('--cols', order.length);
  for (const row of moveRows(model)) {
    box.appendChild(h('li', { class: 'move-row' }, h('span', { class: 'mnum' }, row.number + '.'), order.map((c) => {
      const cell = row.cells[c];
      return cell ? h('button', { type: 'button', class: 'move link' + (cell.ply === current ? ' current' : ''), 'data-ply': cell.ply, 'data-colour': c,
        onclick: () => go(cell.ply) }, notation(cell.display)) : h('span', { class: 'move-none', 'data-colour': c });
    })));
  }
}

/** An evaluation in words: `+0.35` for the first player, or who wins in how many moves; four players, each
 * army's points. */
export function evalText(game, ev) {
  if (!ev || !ev.eval) return '';
  if (familyOf(game) === 'chess4') {
    return ev.eval.map((e, seat) => t('eval.army', { army: seatLabel(game, seat), n: num(units(e)) })).join(' · ');
  }
  // A forced win: chess calls it mate; draughts wins by taking or blocking every piece.
  if (ev.mate) return t(familyOf(game) === 'chess' ? 'eval.mate' : 'eval.win', { who: seatLabel(game, ev.mate > 0 ? 0 : 1), n: num(Math.abs(ev.mate)) });
  return t('eval.value', { v: num(signed(ev.eval[0])) });
}

/** The best line (notation keeps its Latin letters and digits). */
export function bestLineText(pv) {
  return pv && pv.length ? t('review.best_line', { line: pv.join(' ') }) : '';
}

/** A best move's arrow for Board.set({arrows}); a multi-jump's from its first square to its last. */
export function arrowsOf(game, wire) {
  const sq = wire ? wireSquares(game, wire) : null;
  return sq ? [{ from: sq.from, to: sq.to }] : [];
}

/** A mark in words. */
export function markWord(mark) {
  return mark ? t('review.' + mark) : '';
}

/** Mark a fresh move list's buttons: a symbol, a class, `data-mark`, the mark in words. */
export function markMoves(list, review) {
  for (const el of list.querySelectorAll('.move[data-ply]')) {
    const mark = (review.moves[el.dataset.ply - 1] || {}).mark;
    if (!mark) continue;
    el.classList.add('mark-' + mark);
    el.dataset.mark = mark;
    el.title = markWord(mark);
    el.append(h('span', { class: 'mark-sym', 'aria-hidden': 'true' }, markSymbol(mark)), h('span', { class: 'sr-only' }, ` (${markWord(mark)})`));
  }
}

/** An error code in words: `prefix + code` if there is such a string, else "something went wrong". */
export function errorText(prefix, code, params) {
  return t(prefix + code) === prefix + code ? t('err.unknown') : t(prefix + code, params);
}

/** A finished game's review box: asks for a review, polls its progress, then shows the graph and a summary per
 * player. opts {who(seat) -> name and colour, onPly(ply), onReview(review), autostart (ask for the review when
 * there is none yet)}. */
export class ReviewPanel {
  constructor(id, opts) {
    this.id = id;
    this.opts = opts;
    this.box = h('section', { class: 'card review', id: 'review' });
    this.phase = 'loading';
    this.ask('GET');
  }

  async ask(method) {
    clearTimeout(this.timer);
    const { status, body } = await api(`/api/game/${encodeURIComponent(this.id)}/review`, method);
    if (this.gone) return;
    if (status !== 200 && status !== 202) {
      // Reading the state failed (the store is away): the button still offers a review.
      this.phase = method === 'GET' ? 'none' : 'error';
      this.error = method === 'GET' ? null : body.error || 'unknown';
    } else {
      this.body = body;
      this.error = null;
      this.phase = reviewPhase(body);
      if (this.phase === 'none' && method === 'GET' && this.opts.autostart) {
        // Opened from the table's "Review" link: ask at once.
        this.opts.autostart = false;
        this.phase = 'waiting';
        this.body = { state: 'queued', done: 0, total: 0, ahead: 0 };
        this.render();
        this.ask('POST');
        return;
      }
      if (this.phase === 'done') {
        this.review = body.review;
        this.render();
        this.opts.onReview(this.review);
        return;
      }
      if (this.phase === 'waiting') this.timer = setTimeout(() => this.ask('GET'), POLL_MS);
    }
    this.render();
  }

  /** The box's contents for the state it is in. */
  render() {
    const b = this.body || {};
    const head = h('h2', {}, t('review.title'));
    if (this.phase === 'done') {
      this.graph = new EvalGraph(this.review, { label: t('review.graph'), onPly: this.opts.onPly });
      replace(this.box, head, h('div', { class: 'graph-box' }, this.graph.svg), this.summary(),
        h('a', { class: 'button', href: `/api/game/${encodeURIComponent(this.id)}/export?review=1`, download: '', 'data-action': 'download-review' }, t('review.download')));
      return;
    }
    const button = h('button', { type: 'button', class: 'primary', 'data-action': 'review', onclick: () => { this.phase = 'waiting'; this.body = { state: 'queued', done: 0, total: 0, ahead: 0 }; this.render(); this.ask('POST'); } },
      t('review.button'));
    if (this.phase === 'loading') replace(this.box, head);
    else if (this.phase === 'waiting') {
      const text = b.state === 'running' ? t('review.running', { d: num(b.done || 0), n: num(b.total || 0) })
        : b.ahead ? t('review.queued', { n: num(b.ahead) }) : t('review.starting');
      replace(this.box, head, h('div', { id: 'review-progress', role: 'status' },
        h('progress', { max: Math.max(1, b.total || 0), value: b.done || 0, 'aria-label': t('review.title') }), h('span', {}, text)));
    } else {
      replace(this.box, head, button,
        this.error ? h('p', { class: 'review-error', role: 'alert', 'data-error': this.error }, errorText('review.err_', this.error)) : null);
    }
  }

  /** Each player's inaccuracies, mistakes, blunders and average loss. */
  summary() {
    const unit = this.review.unit || 'pawn';
    return h('ul', { class: 'review-summary', id: 'review-summary' }, (this.review.players || []).map((p) => h('li', { 'data-seat': p.seat },
      h('strong', {}, this.opts.who(p.seat)),
      h('div', { class: 'counts' },
        ['inaccuracy', 'mistake', 'blunder'].map((mark) => h('span', { class: 'mark-' + mark, 'data-mark': mark, 'data-count': p[mark] || 0 },
          h('span', { class: 'mark-sym', 'aria-hidden': 'true' }, markSymbol(mark)), ' ', t('review.count_' + mark, { n: num(p[mark] || 0) }))),
        h('span', { 'data-loss': p.average_loss }, t('review.average_loss_' + unit, { n: num(units(p.average_loss || 0, 2)) }))))));
  }

  stop() {
    this.gone = true;
    clearTimeout(this.timer);
  }
}
