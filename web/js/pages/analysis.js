// The analysis board (/analysis): a game from its start, a set-up position or a pasted game; the player moves and
// steps through the moves, and the computer judges the position shown. Positions and legal moves come from the
// server (POST /api/analysis): the board knows no rules.

import { h, replace, clear } from '../dom.js';
import { t, num } from '../i18n/index.js';
import { Board } from '../board/render.js';
import { familyOf } from '../board/geometry.js';
import { wireSquares, lastByArmy } from '../table-model.js';
import { ANALYSIS_GAMES, analysisHref, parseAnalysisQuery } from '../review-model.js';
import { evalText, bestLineText, arrowsOf, api, fillMoves, errorText } from './review.js';
import { seatLabel } from './table.js';

export function mount(app, main) {
  const q = parseAnalysisQuery(location.search);
  let game = q.game;
  let start = q.start;
  let moves = q.moves.map((wire) => ({ wire })); // {wire, display, seat}: display and seat once the server named them
  let cursor = moves.length; // how many of the moves the board shows
  let flipped = false;
  let shown = null; // the server's answer for the position shown
  let error = null; // {code, ply}
  let before = null; // the start and moves before a set-up, to go back to when its start is refused
  let inflight = false;
  let gone = false;
  const cache = new Map(); // game, start and moves -> the server's answer

  let board = null;
  const page = h('div', { class: 'replay-page analysis-page' });
  const boardHost = h('div', { class: 'board-host' });
  const evalLine = h('p', { id: 'analysis-eval', class: 'analysis-eval', 'aria-live': 'polite' });
  const pvLine = h('p', { id: 'analysis-pv', class: 'analysis-pv muted' });
  const errorBox = h('div', { id: 'analysis-error', class: 'analysis-error', role: 'alert' });
  const movesBox = h('ol', { class: 'moves', id: 'moves', tabindex: 0 });
  const gameSel = h('select', { id: 'analysis-game', onchange: () => { game = gameSel.value; start = ''; moves = []; cursor = 0; startInput.value = ''; newBoard(); change(); } });
  const startInput = h('input', { id: 'analysis-start', name: 'start', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', dir: 'ltr' });
  const importText = h('textarea', { id: 'analysis-import', name: 'text', rows: 4, autocomplete: 'off', spellcheck: 'false', dir: 'ltr' });
  main.appendChild(page);

  const key = () => `${game}\n${start}\n${moves.slice(0, cursor).map((m) => m.wire).join(',')}`;

  function layout() {
    const btn = (action, label, f) => h('button', { type: 'button', 'data-action': action, onclick: f }, label);
    replace(gameSel, ANALYSIS_GAMES.map((g) => h('option', { value: g, selected: g === game }, t('game.' + g))));
    startInput.value = start;
    replace(page,
      h('div', { class: 'table-main' }, boardHost, evalLine, pvLine,
        h('div', { class: 'row wrap replay-controls' },
          btn('first', t('replay.first'), () => go(0)),
          btn('prev', t('replay.prev'), () => go(cursor - 1)),
          btn('next', t('replay.next'), () => go(cursor + 1)),
          btn('last', t('replay.last'), () => go(moves.length)),
          btn('flip', t('table.flip'), () => { flipped = !flipped; board.set({ quarterTurns: flipped ? 2 : 0 }); }))),
      h('aside', { class: 'table-side' },
        h('section', { class: 'card analysis-setup' }, h('h1', {}, t('analysis.title')),
          h('div', { class: 'field' }, h('label', { for: 'analysis-game' }, t('create.game')), gameSel),
          h('form', { class: 'field', id: 'analysis-setup', onsubmit: (e) => { e.preventDefault(); setUp(); } },
            h('label', { for: 'analysis-start' }, t('analysis.start')),
            h('div', { class: 'row' }, startInput, h('button', { type: 'submit', 'data-action': 'setup' }, t('analysis.setup'))),
            h('span', { class: 'muted small', id: 'analysis-start-hint' })),
          h('form', { class: 'field', id: 'analysis-import-form', onsubmit: (e) => { e.preventDefault(); importGame(); } },
            h('label', { for: 'analysis-import' }, t('analysis.import')), importText,
            h('div', { class: 'row' }, h('button', { type: 'submit', 'data-action': 'import' }, t('analysis.import_button')))),
          errorBox),
        h('section', { class: 'card' }, h('h2', {}, t('table.moves')), movesBox)));
    newBoard();
    showError();
  }

  function newBoard() {
    if (board) board.destroy();
    board = new Board(boardHost, { game, onMove: play });
    board.set({ quarterTurns: flipped ? 2 : 0, interactive: false });
    const hint = page.querySelector('#analysis-start-hint');
    if (hint) hint.textContent = t('analysis.start_hint_' + familyOf(game));
  }

  /** The position changed: show it from what the server said before, else ask. */
  function change() {
    syncAddress();
    renderMoves();
    const known = cache.get(key());
    if (known) { show(known); return; }
    evalLine.textContent = t('analysis.thinking');
    evalLine.setAttribute('data-state', 'thinking');
    pvLine.textContent = '';
    board.set({ interactive: false, arrows: [] });
    if (!inflight) ask();
  }

  /** One question at a time: when the answer comes for a position no longer shown, ask about the one shown. */
  async function ask() {
    const k = key();
    const asked = { game, start, moves: moves.slice(0, cursor).map((m) => m.wire) };
    inflight = true;
    const { status, body } = await api('/api/analysis', 'POST', asked);
    inflight = false;
    if (gone) return;
    if (status === 200) cache.set(k, body);
    if (k !== key()) change();
    else if (status === 200) show(body);
    else refused(body, asked);
  }

  function show(answer) {
    shown = answer;
    before = null;
    (answer.moves || []).forEach((m, i) => { if (moves[i] && moves[i].wire === m.wire) moves[i] = { ...moves[i], ...m }; });
    const over = answer.turn === null || answer.turn === undefined;
    const done = moves.slice(0, cursor);
    board.set({
      position: answer.position,
      legal: over ? [] : answer.legal || [],
      interactive: !over,
      last: cursor ? wireSquares(game, done[cursor - 1].wire) : null,
      armyLast: familyOf(game) === 'chess4' ? lastByArmy(asModel(done)) : [],
      arrows: answer.eval ? arrowsOf(game, answer.eval.best) : [],
    });
    const ev = answer.eval;
    evalLine.setAttribute('data-state', over ? 'over' : 'eval');
    if (ev) {
      evalLine.textContent = evalText(game, ev);
      if (ev.mate) evalLine.setAttribute('data-mate', ev.mate); else evalLine.removeAttribute('data-mate');
    } else {
      evalLine.textContent = over && answer.outcome ? outcomeText(answer.outcome) : '';
      evalLine.removeAttribute('data-mate');
    }
    pvLine.textContent = ev ? bestLineText(ev.pv) : '';
    renderMoves();
  }

  function outcomeText(o) {
    const head = o.result === 'drawn' ? t('result.draw') : Number.isInteger(o.winner) ? t('result.wins', { who: seatLabel(game, o.winner) }) : t('err.game_over');
    return `${head} · ${errorText('reason.', o.reason)}`;
  }

  /** The server refused the position: say why; a bad move is cut off with those after it; a bad start goes back
   * to the game before it was set up (or the usual start), as do too many moves. */
  function refused(answer, asked) {
    const code = answer.error || 'unknown';
    error = { code, ply: answer.ply };
    showError();
    evalLine.textContent = '';
    evalLine.setAttribute('data-state', 'error');
    if (code === 'bad_move' && answer.ply >= 1 && answer.ply <= asked.moves.length) {
      moves = moves.slice(0, answer.ply - 1);
      cursor = Math.min(cursor, moves.length);
    } else if (['bad_position', 'too_long'].includes(code) && (start || moves.length)) {
      ({ start, moves, cursor } = before || { start: '', moves: [], cursor: 0 });
      before = null;
    } else return;
    change();
  }

  function showError() {
    clear(errorBox);
    if (!error) return;
    errorBox.append(h('p', { 'data-error': error.code }, errorText('analysis.err_', error.code, { n: num(error.ply || '') })));
    if (error.code === 'busy' || error.code === 'unknown') {
      errorBox.append(h('button', { type: 'button', 'data-action': 'retry', onclick: () => { error = null; showError(); cache.delete(key()); change(); } }, t('conn.retry')));
    }
  }

  function say(code) {
    error = code ? { code } : null;
    showError();
  }

  function play(wire) {
    if (!shown || shown.turn === null || shown.turn === undefined) return;
    moves = [...moves.slice(0, cursor), { wire, display: wire, seat: shown.turn }];
    cursor = moves.length;
    say(null);
    change();
  }

  function go(n) {
    const to = Math.max(0, Math.min(moves.length, n));
    if (to === cursor) return;
    cursor = to;
    change();
  }

  function setUp() {
    say(null);
    before = { start, moves, cursor };
    start = startInput.value.trim();
    moves = [];
    cursor = 0;
    change();
  }

  async function importGame() {
    say(null);
    const text = importText.value;
    if (!text.trim()) return;
    const { status, body } = await api('/api/import', 'POST', { game, text });
    if (gone) return;
    if (status !== 200) { say(body.error || (status === 413 ? 'too_large' : 'unknown')); return; }
    if (body.game && body.game !== game && ANALYSIS_GAMES.includes(body.game)) { game = body.game; gameSel.value = game; newBoard(); }
    start = body.start || '';
    startInput.value = start;
    moves = (body.moves || []).map((wire) => ({ wire }));
    cursor = moves.length;
    change();
  }

  /** The moves as the table model's functions read them (seats are colours here). */
  function asModel(list) {
    return { spec: { game }, seats: new Array(familyOf(game) === 'chess4' ? 4 : 2).fill(null), game: { moves: list } };
  }

  /** The moves the server has named (their seats known), the one shown marked. */
  function renderMoves() {
    const named = [];
    for (const m of moves) { if (m.seat === undefined || m.seat === null) break; named.push({ ...m, display: m.display || m.wire }); }
    fillMoves(movesBox, asModel(named), cursor, go);
    if (!named.length) movesBox.appendChild(h('li', { class: 'muted none' }, t('table.no_moves')));
    if (cursor === moves.length) movesBox.scrollTop = movesBox.scrollHeight;
  }

  /** The address names what is shown, so it can be shared or reloaded. */
  function syncAddress() {
    history.replaceState({}, '', analysisHref({ game, start, moves: moves.slice(0, cursor).map((m) => m.wire) }));
  }

  const onKey = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName))) return;
    const to = { ArrowLeft: cursor - 1, ArrowRight: cursor + 1, Home: 0, End: moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener('keydown', onKey);

  layout();
  change();

  return {
    relabel() { layout(); renderMoves(); if (shown) show(shown); },
    unmount() { gone = true; document.removeEventListener('keydown', onKey); },
  };
}
