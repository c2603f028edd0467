// A player's finished games (`history` messages) and the replay of one game (GET /api/game/{id}).

import { h, replace, clear } from '../dom.js';
import { t, num, language, isolate } from '../i18n/index.js';
import { Board } from '../board/render.js';
import { replayPositions } from '../board/replay.js';
import { wireSquares, lastByArmy, colourOf } from '../table-model.js';
import { familyOf } from '../board/geometry.js';
import { imageUrl, positionText } from '../board/geometry.js';
import { seatLabel } from './table.js';
import { ReviewPanel, evalText, bestLineText, arrowsOf, markMoves, markWord, fillMoves } from './review.js';
import { analysisHref } from '../review-model.js';

const LOCALES = { en: 'en-GB', bn: 'bn-IN', mr: 'mr-IN' };

/** A player as the history and the replay JSON name them: a person's name, or a CPU seat as `CPU (level)`. */
export function playerLabel(p) {
  const name = (p && p.name) || String(p);
  const cpu = /^CPU \((1|easy|3|4|medium|6|7|hard)\)$/.exec(name);
  return cpu ? t('seat.cpu', { level: t('level.' + cpu[1]) }) : isolate(name);
}

export function mount(app, main, params) {
  return params.game ? mountReplay(app, main, params.game) : mountHistory(app, main, params.player || null);
}

function mountHistory(app, main, player) {
  let games = [];
  let whose = player;
  const list = h('ul', { class: 'history', id: 'history' });
  const more = h('button', { type: 'button', hidden: true, 'data-action': 'more', onclick: () => ask(games.length ? games[games.length - 1].ended_ms : null) }, t('history.more'));
  const title = h('h1', {}, t('history.title'));
  main.appendChild(h('section', { class: 'card' }, title, list, more));

  function ask(before) {
    const msg = { t: 'history' };
    if (player) msg.player = player;
    if (before) msg.before = before;
    app.send(msg);
  }

  function mine(g) {
    const o = g.outcome;
    if (!o) return '';
    if (o.result === 'drawn') return t('history.drawn');
    if (g.seat !== undefined && o.places && o.places.length > 2) return t('history.place', { n: num(o.places[g.seat]) });
    return t(o.winner === g.seat ? 'history.won' : 'history.lost');
  }

  function render() {
    const other = whose && app.me && whose !== app.me.id;
    const name = games.length && games[0].players ? playerLabel(games[0].players[games[0].seat]) : whose;
    title.textContent = other ? t('history.of', { name }) : t('history.title');
    more.textContent = t('history.more');
    clear(list);
    if (!games.length) list.appendChild(h('li', { class: 'muted' }, t('history.none')));
    // A 24-hour clock: Bengali and Marathi locales would otherwise write the Latin AM/PM.
    const fmt = new Intl.DateTimeFormat(LOCALES[language()], { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });
    for (const g of games) {
      list.appendChild(h('li', { 'data-game': g.id },
        h('span', { class: 'muted small' }, fmt.format(new Date(g.ended_ms))), ' ',
        h('strong', {}, t('game.' + g.game)), ' · ',
        h('span', {}, (g.players || []).map(playerLabel).join(' – ')), ' · ',
        h('span', {}, mine(g), g.outcome && g.outcome.reason ? ` (${t('reason.' + g.outcome.reason)})` : ''),
        g.rating ? h('span', { class: 'muted' }, ' · ', t('table.rating', { before: num(Math.round(g.rating.before)), after: num(Math.round(g.rating.after)) })) : null, ' ',
        h('a', { class: 'button', href: '/game/' + encodeURIComponent(g.id), 'data-action': 'replay' }, t('history.replay'))));
    }
  }

  render();
  if (app.status === 'open') ask(null);
  return {
    onWelcome(reconnected) { if (!reconnected) ask(null); },
    relabel: render,
    onMessage(msg) {
      if (msg.t !== 'history') return;
      whose = msg.player;
      const seen = new Set(games.map((g) => g.id));
      games = [...games, ...(msg.games || []).filter((g) => !seen.has(g.id))];
      more.hidden = !(msg.games || []).length;
      render();
    },
  };
}

function mountReplay(app, main, id) {
  let data = null;
  let positions = [];
  let ply = 0;
  let board = null;
  let panel = null; // the computer's review, once the game is loaded
  const page = h('div', { class: 'replay-page' });
  main.appendChild(page);

  function controls() {
    const btn = (action, label, f) => h('button', { type: 'button', 'data-action': action, 'aria-label': label, title: label, onclick: f }, label);
    return h('div', { class: 'row wrap replay-controls' },
      btn('first', t('replay.first'), () => go(0)),
      btn('prev', t('replay.prev'), () => go(ply - 1)),
      btn('next', t('replay.next'), () => go(ply + 1)),
      btn('last', t('replay.last'), () => go(positions.length - 1)));
  }

  /** The game as the table model's functions read it: its kind, its seats and its moves. */
  function asModel() {
    return { spec: { game: data.game }, seats: new Array(familyOf(data.game) === 'chess4' ? 4 : 2).fill(null), game: { moves: data.moves } };
  }

  function go(n) {
    if (!data) return;
    ply = Math.max(0, Math.min(positions.length - 1, n));
    const g = data.game;
    // The board shows the positions' pieces directly: replay positions are maps, not text.
    board.pieces = positions[ply];
    board.drawPieces(null);
    const counter = page.querySelector('#ply');
    if (counter) counter.textContent = t('replay.ply', { n: num(ply), m: num(positions.length - 1) });
    for (const el of page.querySelectorAll('.move')) el.classList.toggle('current', Number(el.getAttribute('data-ply')) === ply);
    const seats = familyOf(g) === 'chess4' ? 4 : 2;
    const colour = (seat) => colourOf(asModel(), seat);
    board.last = ply ? wireSquares(g, data.moves[ply - 1].wire) : null;
    if (seats === 4) board.armyLast = lastByArmy({ ...asModel(), game: { moves: data.moves.slice(0, ply) } });
    const review = panel && panel.review;
    board.arrows = review && review.positions[ply] ? arrowsOf(g, review.positions[ply].best) : [];
    board.drawMarks();
    showReviewLine(review);
    if (panel && panel.graph) panel.graph.show(ply);
    const analyse = page.querySelector('[data-action="analyse"]');
    if (analyse) analyse.href = analysisHref({ game: g, start: data.start, moves: data.moves.slice(0, ply).map((m) => m.wire) });
    const shot = page.querySelector('[data-action="share-image"]');
    if (shot) shot.href = imageUrl(g, ply ? (data.moves[ply - 1].position || positionText(g, positions[ply], (colour(data.moves[ply - 1].seat) + 1) % seats)) : data.start, 0, board.last);
    app.say(ply ? `${seatLabel(g, colour(data.moves[ply - 1].seat))}: ${data.moves[ply - 1].display}` : t('replay.first'));
  }

  /** Under the board: the shown position's evaluation, what the shown move's mark says, the best line. */
  function showReviewLine(review) {
    const line = page.querySelector('#review-best');
    if (!line) return;
    line.hidden = !review;
    if (!review) return;
    const pos = review.positions[ply];
    const played = ply ? review.moves[ply - 1] : null;
    replace(line,
      // A position with no best move is the game's end: the result says it.
      pos && pos.best ? h('span', { class: 'review-eval' }, evalText(data.game, pos)) : null,
      played && played.mark ? h('strong', { class: 'mark-' + played.mark, 'data-mark': played.mark },
        played.best_display ? t('review.best_was', { mark: markWord(played.mark), move: played.best_display }) : markWord(played.mark), ' ') : null,
      pos ? h('span', { class: 'review-pv' }, bestLineText(pos.pv)) : null);
  }

  /** A player as the summary names them: name and colour. */
  function who(seat) {
    const colour = colourOf(asModel(), seat);
    return `${playerLabel((data.players || [])[seat])} (${seatLabel(data.game, colour)})`;
  }

  function render() {
    if (!data) return;
    const game = data.game;
    const fam = familyOf(game);
    const exportKey = { chess: 'table.download_pgn', draughts: 'table.download_pdn', chess4: 'table.download_pgn4' }[fam];
    const boardHost = h('div', { class: 'board-host' });
    const movesBox = h('ol', { class: 'moves', id: 'moves' });
    fillMoves(movesBox, asModel(), ply, go);
    // Only a finished game is reviewed.
    if (!panel && data.outcome) {
      panel = new ReviewPanel(id, { who, autostart: new URLSearchParams(location.search).has('review'), onPly: (n) => go(n), onReview: () => { markMoves(page.querySelector('#moves'), panel.review); go(ply); } });
    } else if (panel) panel.render();
    if (panel && panel.review) markMoves(movesBox, panel.review);
    replace(page,
      h('div', { class: 'table-main' }, boardHost, h('p', { id: 'review-best', class: 'review-best', hidden: true }), controls(), h('p', { id: 'ply', class: 'muted' }), panel ? panel.box : null),
      h('aside', { class: 'table-side' },
        h('section', { class: 'card' }, h('h1', {}, t('replay.title'), ': ', t('game.' + game)),
          h('p', {}, (data.players || []).map(playerLabel).join(' – ')),
          data.outcome ? h('p', { class: 'result' }, data.outcome.score || '', ' ', t('reason.' + data.outcome.reason)) : null,
          h('a', { class: 'button', href: `/api/game/${encodeURIComponent(id)}/export`, download: '' }, t(exportKey)), ' ',
          h('a', { class: 'button', href: '#', target: '_blank', rel: 'noopener', 'data-action': 'share-image' }, t('table.share_image')), ' ',
          h('a', { class: 'button', href: '/analysis', 'data-action': 'analyse' }, t('review.analyse'))),
        h('section', { class: 'card' }, h('h2', {}, t('table.moves')), movesBox)));
    board = new Board(boardHost, { game });
    board.set({ position: data.start, interactive: false });
    go(ply);
  }

  const onKey = (e) => {
    if (e.defaultPrevented || (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName))) return;
    if (e.key === 'ArrowLeft') go(ply - 1);
    if (e.key === 'ArrowRight') go(ply + 1);
    if (e.key === 'Home') go(0);
    if (e.key === 'End') go(positions.length - 1);
  };
  document.addEventListener('keydown', onKey);

  replace(page, h('p', { class: 'muted' }, t('common.loading')));
  fetch('/api/game/' + encodeURIComponent(id), { headers: { accept: 'application/json' } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((d) => {
      data = { ...d, moves: d.moves || [] };
      positions = replayPositions(data.game, data.start, data.moves);
      ply = positions.length - 1;
      render();
    })
    .catch(() => replace(page, h('section', { class: 'card notice', id: 'not-found' }, h('p', {}, t('replay.not_found')))));

  return {
    relabel: render,
    unmount() { document.removeEventListener('keydown', onKey); if (panel) panel.stop(); },
  };
}
