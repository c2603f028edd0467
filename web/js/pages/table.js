// A table: board, seats with clocks, move list, chat, game actions, result, sharing and export.

import { h, replace, clear, pieceIcon, nameNode, notation } from '../dom.js';
import { t, num, isolate } from '../i18n/index.js';
import { Board, ARMY_COLOURS } from '../board/render.js';
import { quarterTurns, familyOf, draughtsColour, boardOf, pdnNumber, squareName, ARMIES, parsePosition, imageUrl } from '../board/geometry.js';
import { matchTyped } from '../board/state.js';
import { fromState, applyEvent, isMyTurn, plyOf, colourOf, byColour, lastByArmy, moveRows, turnOrder, wireSquares, canTakeBack, remainingNow, moveLeftNow, formatClock, isLow } from '../table-model.js';
import * as sound from '../sound.js';
import { tcLabel } from '../app.js';

const MARK_OF = ['mark-red', 'mark-blue', 'mark-yellow', 'mark-green'];

/** The colour name of a seat in the current language. */
export function seatLabel(game, seat) {
  const fam = familyOf(game);
  if (fam === 'chess4') return t('seat.chess4.' + seat);
  if (fam === 'draughts') return t('seat.draughts.' + draughtsColour(game, seat));
  return t('seat.chess.' + seat);
}

const EXPORT_KEY = { chess: 'table.download_pgn', draughts: 'table.download_pdn', chess4: 'table.download_pgn4' };

/** Scrolls `el` to its end before the next frame is drawn: reading its height at once would lay the page out
 * an extra time in the middle of a render. */
function scrollToEnd(el) {
  requestAnimationFrame(() => { el.scrollTop = el.scrollHeight; });
}

export function mount(app, main, params) {
  let model = null;
  let board = null;
  let tableId = params.id || null;
  let lastSit = null;
  let wantSit = new URLSearchParams(location.search).get('sit') === '1';
  let lowWarned = false;
  let sending = null; // {ack, ply}: our move, sent and not yet acknowledged
  let flipped = false; // the player turned the board round
  let browse = null; // {ply}: looking back at the position after that many moves while the game goes on
  let record = null; // the game as /api/game gives it (start, moves with the position after each), for looking back
  const canMove = () => isMyTurn(model) && !sending;
  let ticker = null;
  let wasAwayNotice = false;
  let menuFor = null;
  let resyncFrom = null; // the version a resync (`open` with `since`) was asked from, while it is pending

  const page = h('div', { class: 'table-page' });
  const boardHost = h('div', { class: 'board-host' });
  const info = h('div', { class: 'table-info' });
  const seatsBox = h('div', { class: 'seats', id: 'seats' });
  const status = h('div', { class: 'game-status', id: 'game-status', 'aria-live': 'off' });
  const actions = h('div', { class: 'actions row wrap', id: 'actions' });
  // Focusable, so a keyboard can scroll a long move list.
  const movesBox = h('ol', { class: 'moves', id: 'moves', tabindex: 0 });
  const chatList = h('ul', { class: 'chat-lines', id: 'chat-lines' });
  const chatInput = h('input', { id: 'chat-input', name: 'text', maxlength: 300, autocomplete: 'off' });
  const moveInput = h('input', { id: 'move-input', name: 'move', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false' });
  const moveHint = h('span', { class: 'muted small', id: 'move-hint' });
  const share = h('div', { class: 'share card', id: 'share', hidden: true });
  const menu = h('div', { class: 'menu', id: 'player-menu', hidden: true, role: 'menu' });
  main.appendChild(page);

  function layout() {
    // One flat grid: on a phone the board comes right after the status and before the seats (both clocks stay in
    // view); on a wide screen the board takes the left column and everything else the right.
    replace(page,
      h('div', { class: 'area-info' }, info, status),
      h('div', { class: 'area-board' }, browseBar, boardHost),
      h('div', { class: 'area-seats' }, seatsBox, actions),
      h('form', { class: 'move-form row area-form', id: 'move-form', onsubmit: onTyped },
        h('label', { for: 'move-input' }, t('table.move_input')), moveInput,
        moveHint),
      h('div', { class: 'area-rest' }, share,
        h('section', { class: 'card' }, h('h2', {}, t('table.moves')), movesBox),
        h('section', { class: 'card chat' }, h('h2', {}, t('table.chat')), chatList,
          h('form', { class: 'row', id: 'chat-form', onsubmit: onChat },
            chatInput, h('button', { type: 'submit', 'data-action': 'chat-send' }, t('table.chat_send'))))),
      menu);
    chatInput.placeholder = t('table.chat_placeholder');
    chatInput.setAttribute('aria-label', t('table.chat'));
  }

  function open(since) {
    const msg = { t: 'open' };
    if (tableId) msg.table = tableId; else msg.code = params.code;
    if (since !== undefined && since !== null) msg.since = since;
    // The page's early socket may have opened this table already (its state is on the way or here).
    if (app.conn && app.conn.sentEarly(msg)) return;
    app.send(msg);
  }

  function onTyped(e) {
    e.preventDefault();
    if (!model || !model.game || !board) return;
    if (!isMyTurn(model)) { app.say(t('err.not_your_turn')); return; }
    const text = moveInput.value;
    const found = matchTyped(model.spec.game, model.game.legal, parsePosition(model.spec.game, model.game.position).pieces, text);
    if (!found) { app.say(t('table.move_unknown', { text })); app.toast(t('table.move_unknown', { text }), 'error'); return; }
    moveInput.value = '';
    if (found.wire) play(found.wire);
    else board.choose(found.options);
  }

  function onChat(e) {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text || !model) return;
    app.send({ t: 'chat', table: model.id, text });
    chatInput.value = '';
  }

  function play(wire) {
    if (!model || !canMove()) return;
    browse = null;
    sending = { ply: plyOf(model), ack: app.conn.move(model.id, plyOf(model), wire) };
    render();
  }

  /** A planned move on the player's turn: played if exactly one legal move goes from its square to its square (a
   * promotion to a queen when the pawn has a choice), else dropped with a word to the player. */
  function playPremove(m) {
    const same = (a, b) => a[0] === b[0] && a[1] === b[1];
    let options = model.game.legal.filter((x) => same(x.from, m.from) && same(x.to, m.to));
    if (options.length > 1 && options.every((x) => x.promotion)) options = options.filter((x) => x.promotion === 'q' || x.promotion === 'd').slice(0, 1);
    if (options.length === 1) play(options[0].wire);
    else app.toast(t('table.premove_dropped'));
  }

  function premoveText(m) {
    const name = (sq) => (familyOf(model.spec.game) === 'draughts' ? String(pdnNumber(boardOf(model.spec.game), sq[0], sq[1])) : squareName(sq[0], sq[1]));
    return t('table.premove_set', { from: name(m.from), to: name(m.to) });
  }

  /** Look back at the position after `ply` moves (the live position at the last ply): the board shows it, the
   * game goes on, nothing is sent. The positions come from the game API, fetched again when the game has grown. */
  async function browseTo(ply) {
    const g = model && model.game;
    if (!g || !g.id) return;
    const n = plyOf(model);
    const target = Math.max(0, Math.min(n, ply));
    if (target === n) { browse = null; render(); return; }
    if (!record || record.id !== g.id || record.moves.length < target) {
      try {
        const r = await fetch('/api/game/' + encodeURIComponent(g.id), { headers: { accept: 'application/json' } });
        if (!r.ok) throw new Error(String(r.status));
        const d = await r.json();
        record = { id: g.id, start: d.start, moves: d.moves || [] };
      } catch {
        app.toast(t('table.browse_failed'), 'error');
        return;
      }
    }
    if (!model || !model.game || model.game.id !== g.id) return;
    browse = { ply: Math.min(target, record.moves.length) };
    render();
    app.say(t('table.browsing', { n: num(browse.ply), m: num(plyOf(model)) }));
  }

  const browseBar = h('div', { class: 'browse-bar notice', id: 'browse', hidden: true });

  function renderBrowse() {
    browseBar.hidden = !browse;
    if (!browse) { clear(browseBar); return; }
    replace(browseBar, h('span', {}, t(isMyTurn(model) ? 'table.browsing_your_turn' : 'table.browsing', { n: num(browse.ply), m: num(plyOf(model)) })), ' ',
      h('button', { type: 'button', class: 'primary', 'data-action': 'live', onclick: () => { browse = null; render(); } }, t('table.back_to_live')));
  }

  function sit(seat, confirm = false) {
    lastSit = seat;
    const msg = { t: 'sit', table: model.id, confirm };
    if (seat !== null && seat !== undefined) msg.seat = seat;
    app.send(msg);
  }

  function nameOf(seat) {
    const s = model.seats[seat];
    if (!s) return colourLabel(seat);
    if (s.player) return isolate(s.player.name);
    if (s.cpu) return t('seat.cpu', { level: t('level.' + s.cpu) });
    return colourLabel(seat);
  }

  /** A seat's colour name in the current game (seats and colours differ after a rotated rematch). */
  function colourLabel(seat) {
    return seatLabel(model.spec.game, colourOf(model, seat));
  }

  function render(animate = false) {
    if (!model) return;
    if (sending && (!model.game || model.game.outcome || plyOf(model) > sending.ply)) sending = null;
    const game = model.spec.game;
    if (!board || board.opts.game !== game) {
      if (board) board.destroy();
      board = new Board(boardHost, { game, onMove: play, onSelect: (sq) => { if (sq) app.say(t('say.selected', { sq })); },
        onPremove: (m) => { renderStatus(); app.say(m ? premoveText(m) : t('table.premove_cancelled')); } });
    }
    const g = model.game;
    if (browse && (!g || !record || record.id !== g.id || browse.ply >= plyOf(model))) browse = null;
    const back = browse ? { ...model, game: { ...g, moves: g.moves.slice(0, browse.ply) } } : null;
    board.set({
      quarterTurns: (quarterTurns(game, colourOf(model, model.you)) + (flipped ? 2 : 0)) % 4,
      position: back ? (browse.ply ? record.moves[browse.ply - 1].position : record.start) : g ? g.position : emptyPosition(game),
      legal: g && canMove() && !back ? g.legal : [],
      last: back ? (browse.ply ? wireSquares(game, g.moves[browse.ply - 1].wire) : null) : g ? g.last : null,
      armyLast: back ? lastByArmy(back) : g ? lastByArmy(model) : [],
      check: g && !back ? g.check : [],
      showLegal: model.spec.rules ? model.spec.rules.show_legal !== false : true,
      interactive: canMove() && !back,
      premoveFor: g && !g.outcome && !back && model.you !== null && model.you !== undefined && !isMyTurn(model) ? colourOf(model, model.you) : null,
      eliminated: g ? byColour(model, g.eliminated) : [],
      animate: animate && !back,
    });
    renderBrowse();
    if (canMove() && !back) {
      const planned = board.takePremove();
      if (planned) playPremove(planned);
      if (sending) return;
    }
    renderInfo();
    renderSeats();
    renderStatus();
    renderActions();
    renderMoves();
    renderShare();
    renderChat();
    // Read-only, never disabled, between turns: a disabled box drops the keyboard focus, and a player who types
    // moves keeps the box focused for the next one.
    moveInput.readOnly = !canMove();
    moveInput.setAttribute('aria-disabled', String(!canMove()));
    app.setMyTurn(isMyTurn(model));
    moveHint.textContent = t('table.move_input_hint_' + familyOf(game));
  }

  function emptyPosition(game) {
    const fam = familyOf(game);
    if (fam === 'chess') return 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    return '';
  }

  function renderInfo() {
    replace(info,
      h('h1', {}, t('game.' + model.spec.game)),
      h('p', { class: 'muted' }, tcLabel(model.spec), ' · ', t(model.spec.rated ? 'lobby.rated' : 'lobby.casual'), ' · ',
        h('span', { id: 'spectators', 'data-count': model.spectators }, t('table.spectators', { n: num(model.spectators || 0) }))));
  }

  function renderSeats() {
    clear(seatsBox);
    const g = model.game;
    const n = model.seats.length;
    // The viewer's own seat last (nearest the board's bottom on a phone), others in turn order.
    const order = [...Array(n).keys()];
    if (model.you !== null && model.you !== undefined) { order.splice(order.indexOf(model.you), 1); order.push(model.you); }
    for (const i of order) {
      const s = model.seats[i];
      const fam = familyOf(model.spec.game);
      const out = g && g.eliminated && g.eliminated[i];
      const c = colourOf(model, i);
      const icon = fam === 'chess4'
        ? h('span', { class: 'seat-mark', style: `color:${ARMY_COLOURS[out ? 'grey' : ARMIES[c]]}` }, pieceIcon('army-K', null, 26), pieceIcon(MARK_OF[c], null, 14))
        : pieceIcon(fam === 'draughts' ? 'man-' + (draughtsColour(model.spec.game, c) === 'w' ? 'white' : 'black') : (c === 0 ? 'wK' : 'bK'), null, 26);
      const person = s && s.player;
      const nameEl = person && (!app.me || person.id !== app.me.id)
        ? h('button', { type: 'button', class: 'link pname', 'data-player': person.id, 'aria-haspopup': 'menu', onclick: (e) => openMenu(person, e.currentTarget) }, nameNode(person.name))
        : h('span', { class: 'pname' }, s && (s.player || s.cpu) ? nameOf(i) : t('seat.open'));
      const turn = g && !g.outcome && g.turn === i;
      const row = h('div', { class: 'seat' + (turn ? ' turn' : '') + (out ? ' out' : ''), 'data-seat': i },
        icon,
        h('div', { class: 'seat-who' },
          h('div', {}, nameEl, i === model.you ? h('span', { class: 'muted' }, ' ', t('seat.you')) : null,
            s && s.away ? h('span', { class: 'badge away', 'data-away': '1' }, t('seat.away')) : null,
            s && s.cpu && s.player ? h('span', { class: 'badge' }, t('seat.cpu', { level: t('level.' + s.cpu) })) : null,
            out ? h('span', { class: 'badge' }, t('seat.eliminated')) : null),
          h('div', { class: 'muted small' }, colourLabel(i),
            fam === 'chess4' && g ? h('span', { class: 'points', 'data-points': (g.points || [])[i] || 0 }, ' · ', t('seat.points', { n: num((g.points || [])[i] || 0) })) : null,
            turn ? h('span', {}, ' · ', t('seat.turn')) : null)),
        h('div', { class: 'clock', 'data-clock': i }, h('span', { class: 'clock-total' }), h('span', { class: 'clock-move' })));
      if (!s || (!s.player && !s.cpu)) {
        const seated = model.you !== null && model.you !== undefined;
        if ((!g || g.outcome) && !seated) row.appendChild(h('button', { type: 'button', class: 'primary', 'data-action': 'sit', 'data-seat': i, onclick: () => sit(i) }, t('seat.sit')));
      }
      seatsBox.appendChild(row);
    }
    tick();
  }

  // Each clock shows the seat's whole time; while a seat with a per-move limit thinks, the time left for this move
  // shows under it. Under 10 s for the move (or low overall) the clock turns red, and for the player it sounds.
  function tick() {
    if (!model || !model.game) return;
    const g = model.game;
    const now = performance.now();
    const base = model.spec.time ? model.spec.time.base_ms : null;
    for (const el of seatsBox.querySelectorAll('[data-clock]')) {
      const i = Number(el.getAttribute('data-clock'));
      const running = !!(g.clocks && g.clocks.running === i && !g.outcome);
      const total = g.clocks ? remainingNow(g.clocks, i, g.clocksAt, running ? now : g.clocksAt) : null;
      const move = running ? moveLeftNow(g.clocks, g.clocksAt, now) : null;
      const main = total !== null ? total : move;
      const sub = total !== null && move !== null ? t('clock.this_move', { time: num(formatClock(move)) }) : '';
      const [totalEl, moveEl] = el.children;
      const text = main === null ? '' : num(formatClock(main));
      if (totalEl.textContent !== text) totalEl.textContent = text;
      if (moveEl.textContent !== sub) moveEl.textContent = sub;
      const low = running && ((move !== null && move < 10000) || isLow(total, base));
      el.classList.toggle('running', running);
      el.classList.toggle('low', low);
      if (low && i === model.you && !lowWarned) { lowWarned = true; sound.play('low'); }
    }
  }

  function resultText(o) {
    if (o.reason === 'aborted') return t('result.aborted');
    let head;
    if (o.result === 'drawn') head = t('result.draw');
    else if (o.winner !== null && o.winner !== undefined) head = t('result.wins', { who: `${nameOf(o.winner)} (${colourLabel(o.winner)})` });
    else head = t('result.places', { list: (o.places || []).map((p, i) => t('result.place', { n: num(p), who: nameOf(i) })).join(', ') });
    return `${head} · ${t('reason.' + o.reason)}` + (o.score ? ` · ${o.score}` : '');
  }

  function renderStatus() {
    clear(status);
    const g = model.game;
    if (!g) { status.appendChild(h('p', {}, t('table.waiting'))); return; }
    if (g.outcome) {
      status.appendChild(h('p', { class: 'result', id: 'result', 'data-reason': g.outcome.reason }, resultText(g.outcome)));
      for (const r of g.ratings || []) {
        if (r.seat !== model.you) continue;
        status.appendChild(h('p', { class: 'muted' }, t('table.rating', { before: num(Math.round(r.before)), after: num(Math.round(r.after)) }), r.provisional ? ' ' + t('table.provisional') : ''));
      }
      return;
    }
    const mine = model.you !== null && model.you !== undefined ? model.seats[model.you] : null;
    if (mine && mine.cpu && mine.player) {
      // A computer plays this seat since our time ran out or we were away: one tap takes it back.
      status.appendChild(h('p', { class: 'notice', id: 'cpu-playing' }, t('table.cpu_playing'), ' ',
        button('take-back-seat', t('table.cpu_playing_stop'), () => open(model.version), true)));
    }
    if (board && board.pre.move) status.appendChild(h('p', { class: 'premove', id: 'premove' }, premoveText(board.pre.move)));
    if (sending && isMyTurn(model)) status.appendChild(h('p', { class: 'sending', id: 'sending', role: 'status' }, t('table.sending')));
    else if (isMyTurn(model)) status.appendChild(h('p', { class: 'your-turn', id: 'your-turn' }, t('table.your_turn')));
    else if (g.turn !== null && g.turn !== undefined) status.appendChild(h('p', {}, t('table.their_turn', { name: nameOf(g.turn) })));
    if (g.takeback_offer !== null && g.takeback_offer !== undefined) {
      status.appendChild(h('p', { class: 'draw-offer', id: 'takeback-offer' }, g.takeback_offer === model.you ? t('table.takeback_asked_you') : t('table.takeback_asked', { name: nameOf(g.takeback_offer) })));
    }
    if (g.draw_offer !== null && g.draw_offer !== undefined) {
      status.appendChild(h('p', { class: 'draw-offer', id: 'draw-offer' }, g.draw_offer === model.you ? t('table.draw_offered_you') : t('table.draw_offered', { name: nameOf(g.draw_offer) })));
    }
  }

  function button(action, label, onclick, primary = false) {
    return h('button', { type: 'button', class: primary ? 'primary' : '', 'data-action': action, onclick }, label);
  }

  function renderActions() {
    clear(actions);
    const g = model.game;
    const seated = model.you !== null && model.you !== undefined;
    const two = model.seats.length === 2;
    const id = model.id;
    if (seated && g && !g.outcome) {
      if (plyOf(model) < model.seats.length) actions.appendChild(button('abort', t('table.abort'), () => app.send({ t: 'abort', table: id })));
      const asked = g.takeback_offer;
      if (asked !== null && asked !== undefined && asked !== model.you) {
        actions.appendChild(button('takeback-accept', t('table.takeback_accept'), () => app.send({ t: 'takeback', table: id, action: 'accept' }), true));
        actions.appendChild(button('takeback-decline', t('table.takeback_decline'), () => app.send({ t: 'takeback', table: id, action: 'decline' })));
      } else if (canTakeBack(model)) {
        const people = model.seats.every((s) => s && s.player && !s.cpu);
        actions.appendChild(button('takeback', t(people ? 'table.takeback_ask' : 'table.takeback'), () => app.send({ t: 'takeback', table: id })));
      }
      actions.appendChild(button('resign', t('table.resign'), async () => { if (await app.confirm(t('table.resign_confirm'))) app.send({ t: 'resign', table: id }); }));
      if (two) {
        if (g.draw_offer !== null && g.draw_offer !== undefined && g.draw_offer !== model.you) {
          actions.appendChild(button('draw-accept', t('table.draw_accept'), () => app.send({ t: 'draw', table: id, action: 'accept' }), true));
          actions.appendChild(button('draw-decline', t('table.draw_decline'), () => app.send({ t: 'draw', table: id, action: 'decline' })));
        } else if (g.draw_offer === null || g.draw_offer === undefined) {
          actions.appendChild(button('draw-offer', t('table.draw_offer'), () => app.send({ t: 'draw', table: id, action: 'offer' })));
        }
      }
    }
    if (seated && g && g.outcome) {
      const people = model.seats.filter((s) => s && s.player && !s.cpu).length || 1;
      const asked = (model.rematch || []).length;
      actions.appendChild(button('rematch', asked ? t('table.rematch_asked', { n: num(asked), m: num(people) }) : t('table.rematch'), () => app.send({ t: 'rematch', table: id }), true));
    }
    if (seated && (!g || g.outcome)) actions.appendChild(button('stand', t('seat.stand'), () => app.send({ t: 'stand', table: id })));
    if (g && g.position) {
      actions.appendChild(h('a', { class: 'button', href: imageUrl(model.spec.game, g.position, quarterTurns(model.spec.game, colourOf(model, model.you)), g.last),
        target: '_blank', rel: 'noopener', 'data-action': 'share-image' }, t('table.share_image')));
    }
    if (g && g.outcome && g.id) {
      const fam = familyOf(model.spec.game);
      actions.appendChild(h('a', { class: 'button', href: `/game/${encodeURIComponent(g.id)}?review=1`, 'data-action': 'review-game' }, t('review.button')));
      actions.appendChild(h('a', { class: 'button', href: `/api/game/${encodeURIComponent(g.id)}/export`, download: '', 'data-action': 'download' }, t(EXPORT_KEY[fam])));
    }
    actions.appendChild(button('flip', t('table.flip'), () => { flipped = !flipped; render(); }));
    actions.appendChild(button('leave', t('table.leave'), () => {
      if (seated && (!g || g.outcome)) app.send({ t: 'stand', table: id });
      app.navigate('/');
    }));
  }

  function renderMoves() {
    clear(movesBox);
    const g = model.game;
    if (!g || !(g.moves || []).length) { movesBox.appendChild(h('li', { class: 'muted none' }, t('table.no_moves'))); return; }
    const order = turnOrder(model);
    const fam = familyOf(model.spec.game);
    movesBox.style.setProperty('--cols', order.length);
    // One column per colour in turn order (four-player chess: headed by each army), one row per round, numbered in
    // Western digits like the notation itself; a long move wraps inside its own cell.
    if (fam === 'chess4') {
      movesBox.appendChild(h('li', { class: 'move-row move-head', 'aria-hidden': 'true' }, h('span', { class: 'mnum' }),
        ...order.map((c) => h('span', { class: 'move-col seat-mark', 'data-colour': c, style: `color:${ARMY_COLOURS[ARMIES[c]]}` }, pieceIcon('army-K', null, 20), pieceIcon(MARK_OF[c], null, 11)))));
    }
    for (const row of moveRows(model)) {
      movesBox.appendChild(h('li', { class: 'move-row' }, h('span', { class: 'mnum' }, String(row.number) + '.'),
        ...order.map((colour) => (row.cells[colour]
          ? h('button', { type: 'button', class: 'move link' + (browse && browse.ply === row.cells[colour].ply ? ' current' : ''), 'data-ply': row.cells[colour].ply,
            'data-seat': row.cells[colour].seat, 'data-colour': colour, onclick: () => browseTo(row.cells[colour].ply) }, notation(row.cells[colour].display))
          : h('span', { class: 'move-none', 'data-colour': colour })))));
    }
    if (!browse) scrollToEnd(movesBox);
  }

  function renderShare() {
    if (!model.code) { share.hidden = true; return; }
    share.hidden = false;
    const link = `${location.origin}/t/${model.code}`;
    const copy = (text) => async (e) => {
      try { await navigator.clipboard.writeText(text); e.target.textContent = t('common.copied'); } catch { /* no clipboard: the text is selectable */ }
    };
    replace(share, h('h2', {}, t('table.share')),
      h('div', { class: 'row' }, h('span', {}, t('table.share_link')), h('input', { readonly: true, value: link, id: 'share-link', onfocus: (e) => e.target.select() }),
        h('button', { type: 'button', onclick: copy(link) }, t('common.copy'))),
      h('div', { class: 'row' }, h('span', {}, t('table.share_code')), h('code', { id: 'share-code' }, model.code),
        h('button', { type: 'button', onclick: copy(model.code) }, t('common.copy'))));
  }

  function renderChat() {
    clear(chatList);
    for (const line of model.chat || []) {
      if (app.has(line.from.id, 'mute') || app.has(line.from.id, 'block')) continue;
      const mine = app.me && line.from.id === app.me.id;
      chatList.appendChild(h('li', { 'data-from': line.from.id },
        mine ? h('strong', {}, nameNode(line.from.name)) : h('button', { type: 'button', class: 'link pname', 'data-player': line.from.id, onclick: (e) => openMenu(line.from, e.currentTarget) }, nameNode(line.from.name)),
        ': ', h('bdi', { class: 'chat-text', dir: 'auto' }, line.text)));
    }
    scrollToEnd(chatList);
  }

  function openMenu(player, anchor) {
    menuFor = player;
    clear(menu);
    menu.hidden = false;
    menu.setAttribute('aria-label', t('table.menu_for', { name: player.name }));
    const item = (action, label, f) => h('button', { type: 'button', role: 'menuitem', 'data-action': action, onclick: () => { closeMenu(); f(); } }, label);
    const rel = (relation, on) => app.send({ t: 'relation', player: player.id, relation, on });
    const fav = app.has(player.id, 'favourite');
    const muted = app.has(player.id, 'mute');
    const blocked = app.has(player.id, 'block');
    menu.appendChild(h('p', { class: 'menu-title' }, nameNode(player.name)));
    menu.appendChild(item(fav ? 'unfavourite' : 'favourite', t(fav ? 'table.fav_off' : 'table.fav_on'), () => rel('favourite', !fav)));
    menu.appendChild(item(muted ? 'unmute' : 'mute', t(muted ? 'table.mute_off' : 'table.mute_on'), () => rel('mute', !muted)));
    menu.appendChild(item(blocked ? 'unblock' : 'block', t(blocked ? 'table.block_off' : 'table.block_on'), async () => {
      if (blocked || await app.confirm(t('table.block_confirm', { name: player.name }))) rel('block', !blocked);
    }));
    menu.appendChild(item('games', t('history.of', { name: player.name }), () => app.navigate('/history/' + encodeURIComponent(player.id))));
    menu.appendChild(item('close-menu', t('common.close'), () => {}));
    const r = anchor.getBoundingClientRect();
    menu.style.top = `${window.scrollY + r.bottom + 4}px`;
    menu.style.left = `${Math.max(8, Math.min(window.innerWidth - 220, r.left))}px`;
    menu.querySelector('button').focus();
  }

  function closeMenu() {
    menu.hidden = true;
    menuFor = null;
  }

  /** Sounds and live-region words for an applied event. */
  function announce(ev, before) {
    const g = model.game;
    switch (ev.e) {
      case 'moved': {
        lowWarned = false;
        app.say(t('say.moved', { who: colourLabel(ev.seat), move: ev.display }) + (ev.check && ev.check.length ? '. ' + t('say.check') : ''));
        const capture = /x|:/.test(ev.display) || (g.last && g.last.captures && g.last.captures.length);
        sound.play(capture ? 'capture' : 'move');
        if (isMyTurn(model)) setTimeout(() => { sound.play('turn'); app.say(t('say.your_turn')); }, 400);
        break;
      }
      case 'ended':
        sound.play('end');
        app.say(t('say.ended', { result: resultText(ev.outcome) }));
        if (ev.outcome.reason === 'abandoned' && model.you !== null && ev.outcome.winner !== model.you && wasAwayNotice) app.toast(t('conn.removed'), 'error');
        break;
      case 'takeback_offered':
        if (ev.seat !== model.you) { app.say(t('table.takeback_asked', { name: nameOf(ev.seat) })); sound.play('turn'); }
        break;
      case 'takeback_declined':
        if (ev.seat !== model.you) app.say(t('table.takeback_refused'));
        break;
      case 'took_back':
        // The looked-back positions fetched before belong to moves that are gone.
        record = null;
        browse = null;
        app.say(t('say.took_back'));
        if (isMyTurn(model)) sound.play('turn');
        break;
      case 'started':
        lowWarned = false;
        app.say(t('say.started'));
        if (isMyTurn(model)) sound.play('turn');
        break;
      case 'seat': {
        const was = before.seats[ev.seat];
        const name = ev.info.player ? ev.info.player.name : nameOf(ev.seat);
        if (ev.info.away && !(was && was.away)) app.say(t('say.away', { name }));
        else if (!ev.info.away && was && was.away) app.say(t('say.back', { name }));
        else if (ev.info.player && !(was && was.player)) app.say(t('say.sat', { name }));
        if (ev.info.player && app.me && ev.info.player.id === app.me.id && ev.info.cpu) app.toast(t('conn.removed_cpu'), 'error');
        break;
      }
      case 'eliminated':
        app.say(t('say.eliminated', { who: colourLabel(ev.seat) }));
        break;
      case 'draw_offered':
        if (ev.seat !== model.you) app.say(t('table.draw_offered', { name: nameOf(ev.seat) }));
        break;
      case 'draw_declined':
        app.say(t('table.draw_declined'));
        break;
      default:
        break;
    }
  }

  function onFullState(state) {
    resyncFrom = null;
    const reopened = model !== null;
    const prevGame = model && model.game;
    model = fromState(state, performance.now(), model);
    if (!tableId || location.pathname !== '/table/' + model.id) {
      tableId = model.id;
      history.replaceState({}, '', '/table/' + model.id + location.search);
    }
    if (model.game) app.conn.forgetMoves(model.id, plyOf(model));
    // Back after a long absence: the game ended without us, or a CPU has our seat.
    const g = model.game;
    if (reopened && g && g.outcome && g.outcome.reason === 'abandoned' && model.you !== null && g.outcome.winner !== model.you && !(prevGame && prevGame.outcome)) {
      app.toast(t('conn.removed'), 'error');
    }
    if (wantSit && (model.you === null || model.you === undefined) && (!g || g.outcome)) {
      const free = model.seats.findIndex((s) => !s || (!s.player && !s.cpu));
      if (free >= 0) sit(free);
    }
    wantSit = false;
    render(false);
    // A table whose seats were all filled at creation (CPUs, an accepted challenge) has started before the page
    // opened it: no `started` event comes, so say it here.
    if (!reopened && g && !g.outcome && !(g.moves || []).length) {
      app.say(t('say.started'));
      if (isMyTurn(model)) sound.play('turn');
    }
  }

  layout();
  // Read-only view of the table for the browser tests (they pick moves from the server's legal list).
  window.__parlorTable = () => model;
  if (app.status === 'open') open();
  ticker = setInterval(tick, 100);
  // The move list steps through the game with the arrow keys (Home: the start, End or Escape: the live position).
  movesBox.addEventListener('keydown', (e) => {
    if (!model || !model.game) return;
    const now = browse ? browse.ply : plyOf(model);
    const to = { ArrowLeft: now - 1, ArrowUp: now - 1, ArrowRight: now + 1, ArrowDown: now + 1, Home: 0, End: plyOf(model) }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    browseTo(to);
  });
  const onKey = (e) => {
    if (e.key === 'Escape' && browse) { browse = null; render(); return; }
    if (e.key !== 'Escape') return;
    if (!menu.hidden) closeMenu();
    else if (board) board.apply({ state: { selected: null, dests: [], pending: null }, play: null });
  };
  document.addEventListener('keydown', onKey);
  const onDocClick = (e) => { if (!menu.hidden && !menu.contains(e.target) && !(e.target.closest && e.target.closest('.pname'))) closeMenu(); };
  document.addEventListener('click', onDocClick);

  return {
    handlesErrors: false,
    onWelcome(reconnected) {
      if (reconnected && model) { wasAwayNotice = true; open(model.version); } else open();
    },
    relabel() { layout(); if (model) { if (board) { board.destroy(); board = null; } render(false); } },
    onMessage(msg) {
      // Our move is through (acknowledged, refused, or the game moved past it): the board is ours again.
      if (sending && ((msg.t === 'ack' || msg.t === 'error') && msg.ack === sending.ack)) { sending = null; if (model) render(); }
      if (msg.t === 'table' && msg.state && (!tableId || msg.state.id === tableId || (params.code && msg.state.code === params.code))) {
        onFullState(msg.state);
        return;
      }
      if (msg.t === 'event' && model && msg.table === model.id) {
        const before = model;
        const r = applyEvent(model, msg.v, msg.event, performance.now(), app.me && app.me.id);
        if (r.status === 'gap') {
          // Ask for the missed events; if they still leave a gap (lines of a player we muted are never sent to
          // us), ask for the full state instead of asking again and again.
          if (resyncFrom === model.version) { resyncFrom = null; open(); } else { resyncFrom = model.version; open(model.version); }
          return;
        }
        if (r.status !== 'applied') return;
        resyncFrom = null;
        model = r.model;
        if (msg.event.e === 'chat') { renderChat(); return; }
        if (msg.event.e === 'spectators') { renderInfo(); return; }
        render(msg.event.e === 'moved');
        announce(msg.event, before);
        return;
      }
      if (msg.t === 'relations' && model) { renderChat(); renderSeats(); return; }
      if (msg.t === 'error' && (msg.table === tableId || (!msg.table && ['table_not_found', 'confirm_blocked', 'blocked', 'table_full', 'seat_taken'].includes(msg.code)))) {
        if (msg.code === 'table_not_found') {
          replace(page, h('section', { class: 'card notice', id: 'not-found' }, h('p', {}, t('err.table_not_found')), h('a', { class: 'button primary', href: '/' }, t('nav.lobby'))));
          model = null;
          return;
        }
        if (msg.code === 'confirm_blocked') {
          app.confirm(t('table.blocked_confirm'), t('table.blocked_yes'), t('common.cancel')).then((yes) => { if (yes && model) sit(lastSit, true); });
          return;
        }
        app.toast(t('err.' + msg.code) === 'err.' + msg.code ? t('err.unknown') : t('err.' + msg.code), 'error');
        if (msg.ack !== undefined && msg.ack !== null && model) render(false); // a refused move: show the real position again
      }
    },
    unmount() {
      app.setMyTurn(false);
      clearInterval(ticker);
      delete window.__parlorTable;
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onDocClick);
      if (model) app.send({ t: 'close', table: model.id });
    },
  };
}
