// The lobby: nickname, online players (favourites first, hearts), public tables updated live, create a table,
// join by code, play the computer, challenge a player.

import { h, replace, clear, nameNode } from '../dom.js';
import { t, num, displayName } from '../i18n/index.js';
import { tcLabel, renderChallenges } from '../app.js';

export const GAMES = ['chess', 'draughts', 'chess4'];
export const VARIANTS = ['english', 'international', 'russian', 'pool'];
// The computer's levels, weakest first, as the protocol names them (easy, medium and hard are 2, 5 and 8).
export const LEVELS = ['1', 'easy', '3', '4', 'medium', '6', '7', 'hard'];
const LEVEL_KEY = 'parlor.level';

/** The level a player last chose for a quick game (kept in the browser), or level 1 the first time. */
export function rememberedLevel(storage) {
  try {
    const l = storage && storage.getItem(LEVEL_KEY);
    return LEVELS.includes(l) ? l : '1';
  } catch { return '1'; }
}

function rememberLevel(storage, level) {
  try { storage.setItem(LEVEL_KEY, level); } catch { /* private mode: not kept */ }
}
const TIMES = {
  two: [
    ['default', null],
    ['5+0', { base_ms: 300000, increment_ms: 0, per_move_ms: null }],
    ['10+5', { base_ms: 600000, increment_ms: 5000, per_move_ms: null }],
    ['30+0', { base_ms: 1800000, increment_ms: 0, per_move_ms: 60000 }],
    ['none', { base_ms: null, increment_ms: 0, per_move_ms: null }],
  ],
  // The first is the server's default: 60 s a turn, after which a CPU plays the seat.
  four: [
    ['60s', { base_ms: null, increment_ms: 0, per_move_ms: 60000 }],
    ['30s', { base_ms: null, increment_ms: 0, per_move_ms: 30000 }],
    ['none', { base_ms: null, increment_ms: 0, per_move_ms: null }],
  ],
};

/** The spec of a quick game against the computer at `level`. No clock: nobody waits for the player, and a
 * beginner must not lose a game by thinking. */
export function quickSpec(game, level = '1') {
  const cpus = game === 'chess4' ? 3 : 1;
  const seats = [{ kind: 'me' }, ...Array.from({ length: cpus }, () => ({ kind: 'cpu', level }))];
  const time = { base_ms: null, increment_ms: 0, per_move_ms: null };
  return { game, time, rated: false, private: false, seats };
}

export function mount(app, main) {
  let players = [];
  let tables = new Map();
  let loaded = false; // until the first `lobby` message, say so rather than "nobody"
  let quickLevel = rememberedLevel(globalThis.localStorage); // the computer's strength in a quick game, and the checkers variant
  let quickVariant = 'english';
  let challengeTo = null; // a player being challenged: the form sends `challenge` instead of `create`

  const nameInput = h('input', { id: 'name', name: 'name', maxlength: 24, autocomplete: 'nickname', dir: 'auto' });
  // The box shows the player's name as the page shows it (a given guest name in the page's language); saved
  // unchanged, the name stays the one the server gave.
  let shownName = '';
  const showName = () => { shownName = app.me ? displayName(app.me.name) : ''; nameInput.value = shownName; };
  showName();
  const playersBox = h('ul', { class: 'players', id: 'players' });
  const tablesBox = h('div', { class: 'tables', id: 'tables' });
  const formBox = h('section', { class: 'card', id: 'create' });
  const page = h('div', { class: 'lobby' });
  main.appendChild(page);

  function render() {
    replace(page,
      h('section', { class: 'card intro' },
        h('h1', {}, t('app.name')),
        h('p', { class: 'muted' }, t('app.tagline')),
        h('form', { class: 'row', id: 'name-form', onsubmit: (e) => { e.preventDefault(); const v = nameInput.value.trim(); app.send({ t: 'set_name', name: v === shownName && app.me ? app.me.name : v }); } },
          h('label', { for: 'name' }, t('lobby.name')), nameInput,
          h('button', { type: 'submit', 'data-action': 'save-name' }, t('lobby.name_save')))),
      h('section', { class: 'card quick' },
        h('h2', {}, t('lobby.quick')),
        h('div', { class: 'quick-level' },
          h('label', { for: 'quick-level' }, t('lobby.quick_level')), ' ',
          h('select', { id: 'quick-level', 'aria-describedby': 'quick-level-about', onchange: (e) => {
            quickLevel = e.target.value;
            rememberLevel(globalThis.localStorage, quickLevel);
            const about = page.querySelector('#quick-level-about');
            if (about) about.textContent = t('level_about.' + quickLevel);
          } }, LEVELS.map((l) => h('option', { value: l, selected: l === quickLevel }, t('level.' + l)))),
          h('p', { id: 'quick-level-about', class: 'muted small' }, t('level_about.' + quickLevel))),
        h('div', { class: 'row wrap' },
          h('label', { for: 'quick-variant' }, t('game.variant')),
          h('select', { id: 'quick-variant', onchange: (e) => { quickVariant = e.target.value; } },
            VARIANTS.map((v) => h('option', { value: v, selected: v === quickVariant }, t('game.draughts/' + v))))),
        h('div', { class: 'row wrap' }, GAMES.map((g) => h('button', { type: 'button', class: 'primary', 'data-quick': g,
          onclick: () => app.send({ t: 'create', spec: quickSpec(g === 'draughts' ? 'draughts/' + quickVariant : g, quickLevel) }) }, t('lobby.quick_' + g)))),
        h('p', { class: 'muted small' }, t('lobby.quick_no_clock')),
        h('form', { class: 'row', id: 'code-form', onsubmit: (e) => { e.preventDefault(); const c = e.target.code.value.trim(); if (c) app.navigate('/t/' + encodeURIComponent(c)); } },
          h('label', { for: 'code' }, t('lobby.code')),
          h('input', { id: 'code', name: 'code', placeholder: t('lobby.code_placeholder'), autocapitalize: 'characters', size: 8 }),
          h('button', { type: 'submit', 'data-action': 'join-code' }, t('lobby.code_join')))),
      h('section', { class: 'card' }, h('h2', {}, t('lobby.tables')), tablesBox),
      h('section', { class: 'card' }, h('h2', {}, t('lobby.players')), playersBox),
      formBox);
    renderPlayers();
    renderTables();
    renderForm();
  }

  function renderPlayers() {
    clear(playersBox);
    if (!loaded) { playersBox.appendChild(h('li', { class: 'muted' }, t('common.loading'))); return; }
    const others = players.filter((p) => !app.me || p.id !== app.me.id);
    const fav = (p) => app.has(p.id, 'favourite') || p.favourite;
    others.sort((a, b) => Number(fav(b)) - Number(fav(a)));
    if (!others.length) playersBox.appendChild(h('li', { class: 'muted' }, t('lobby.no_players')));
    for (const p of others) {
      const isFav = fav(p);
      playersBox.appendChild(h('li', { 'data-player': p.id },
        h('button', { type: 'button', class: 'heart' + (isFav ? ' on' : ''), 'aria-pressed': String(isFav), 'aria-label': t('lobby.favourite'), title: t('lobby.favourite'),
          onclick: () => app.send({ t: 'relation', player: p.id, relation: 'favourite', on: !isFav }) }, isFav ? '♥' : '♡'),
        h('span', { class: 'pname' }, nameNode(p.name)),
        h('button', { type: 'button', 'data-action': 'challenge', onclick: () => { challengeTo = p; renderForm(); formBox.scrollIntoView({ behavior: 'smooth' }); } }, t('lobby.challenge'))));
    }
  }

  function seatText(seat) {
    if (seat.player) return nameNode(seat.player.name);
    if (seat.cpu) return t('seat.cpu', { level: t('level.' + seat.cpu) });
    return t('seat.open');
  }

  /** How long ago a table was made, in words of the page's language. */
  function age(ms) {
    const min = Math.max(0, Math.floor((Date.now() - (ms || Date.now())) / 60000));
    if (min < 1) return t('lobby.age_now');
    if (min < 60) return t('lobby.age_min', { n: num(min) });
    return t('lobby.age_hour', { n: num(Math.floor(min / 60)) });
  }

  function renderTables() {
    clear(tablesBox);
    if (!tables.size) { tablesBox.appendChild(h('p', { class: 'muted' }, t(loaded ? 'lobby.no_tables' : 'common.loading'))); return; }
    // Newest first: a new table is the one most likely to want players.
    const newest = [...tables.values()].sort((a, b) => (b.created_ms || 0) - (a.created_ms || 0));
    for (const tb of newest) {
      const free = tb.seats.filter((s) => !s.player && !s.cpu).length;
      tablesBox.appendChild(h('div', { class: 'lobby-table', 'data-table': tb.id },
        h('div', { class: 'tgame' }, h('strong', {}, t('game.' + tb.game)), ' · ', tcLabel({ game: tb.game, time: tb.time }), ' · ', t(tb.rated ? 'lobby.rated' : 'lobby.casual')),
        tb.host ? h('div', { class: 'muted small thost' }, t('lobby.host', { name: tb.host.name, age: age(tb.created_ms) })) : null,
        h('div', { class: 'tseats' }, tb.seats.map((s, i) => h('span', { class: 'tseat' + (s.player || s.cpu ? '' : ' free') }, (i ? ' · ' : '') , seatText(s)))),
        h('div', { class: 'row' },
          tb.playing ? h('span', { class: 'muted' }, t('lobby.playing')) : h('span', { class: 'muted' }, t('lobby.free_seats', { n: num(free) })),
          h('a', { class: 'button' + (free && !tb.playing ? ' primary' : ''), href: '/table/' + tb.id + (free && !tb.playing ? '?sit=1' : ''), 'data-action': free && !tb.playing ? 'join' : 'watch' },
            t(free && !tb.playing ? 'lobby.join' : 'lobby.watch')))));
    }
  }

  function renderForm() {
    clear(formBox);
    const gameSel = h('select', { id: 'c-game', name: 'game' }, GAMES.map((g) => h('option', { value: g }, t('game.' + g))));
    const variantSel = h('select', { id: 'c-variant', name: 'variant' }, VARIANTS.map((v) => h('option', { value: v }, t('game.draughts/' + v))));
    const timeSel = h('select', { id: 'c-time', name: 'time' });
    const rated = h('input', { type: 'checkbox', id: 'c-rated', name: 'rated' });
    const priv = h('input', { type: 'checkbox', id: 'c-private', name: 'private' });
    const showLegal = h('input', { type: 'checkbox', id: 'c-show-legal', checked: true });
    const rotate = h('input', { type: 'checkbox', id: 'c-rotate', checked: true });
    const mandatory = h('input', { type: 'checkbox', id: 'c-mandatory', checked: true });
    const moveLimit = h('input', { type: 'number', id: 'c-move-limit', min: 1, max: 1000, inputmode: 'numeric' });
    const seatsBox = h('div', { class: 'seats-form' });
    const variantRow = h('div', { class: 'field' }, h('label', { for: 'c-variant' }, t('game.variant')), variantSel);
    const mandatoryRow = h('label', { class: 'check' }, mandatory, t('create.mandatory_capture'));
    const limitRow = h('div', { class: 'field' }, h('label', { for: 'c-move-limit' }, t('create.move_limit')), moveLimit);
    const seatsRow = h('fieldset', {}, h('legend', {}, t('create.seats')), seatsBox);

    const sync = () => {
      const g = gameSel.value;
      variantRow.hidden = g !== 'draughts';
      mandatoryRow.hidden = g !== 'draughts';
      limitRow.hidden = g !== 'chess4';
      seatsRow.hidden = !!challengeTo;
      replace(timeSel, TIMES[g === 'chess4' ? 'four' : 'two'].map(([k, v]) => h('option', { value: k }, k === 'default' ? t('tc.default') : k === 'none' ? t('tc.none') : tcLabel({ game: g, time: v }))));
      const n = g === 'chess4' ? 4 : 2;
      replace(seatsBox, Array.from({ length: n }, (_, i) => {
        const kind = h('select', { name: 'seat' + i, 'data-seat': i, 'aria-label': t('create.seat_n', { n: i + 1 }) },
          h('option', { value: 'me', selected: i === 0 }, t('create.seat_me')),
          h('option', { value: 'open', selected: i !== 0 }, t('create.seat_open')),
          h('option', { value: 'cpu' }, t('create.seat_cpu')));
        const level = h('select', { name: 'level' + i, 'aria-label': t('create.level'), hidden: true }, LEVELS.map((l) => h('option', { value: l, selected: l === 'medium' }, t('level.' + l))));
        kind.addEventListener('change', () => { level.hidden = kind.value !== 'cpu'; });
        return h('div', { class: 'row seat-row' }, h('span', { class: 'seat-name' }, seatName(g, i)), kind, level);
      }));
    };
    gameSel.addEventListener('change', sync);

    const spec = () => {
      const g = gameSel.value;
      const game = g === 'draughts' ? 'draughts/' + variantSel.value : g;
      const times = TIMES[g === 'chess4' ? 'four' : 'two'];
      const time = (times.find(([k]) => k === timeSel.value) || [null, null])[1];
      const seats = [...seatsBox.querySelectorAll('.seat-row')].map((row) => {
        const [kind, level] = row.querySelectorAll('select');
        return kind.value === 'cpu' ? { kind: 'cpu', level: level.value } : { kind: kind.value };
      });
      const limit = Number(moveLimit.value);
      return { game, time, rated: rated.checked, private: priv.checked,
        rules: { show_legal: showLegal.checked, rotate_first: rotate.checked, mandatory_capture: mandatory.checked, move_limit: g === 'chess4' && limit > 0 ? limit : null },
        seats: challengeTo ? [] : seats };
    };

    const form = h('form', { id: 'create-form', onsubmit: (e) => {
      e.preventDefault();
      if (challengeTo) { app.send({ t: 'challenge', to: challengeTo.id, spec: spec() }); challengeTo = null; renderForm(); }
      else app.send({ t: 'create', spec: spec() });
    } },
      h('div', { class: 'field' }, h('label', { for: 'c-game' }, t('create.game')), gameSel),
      variantRow,
      h('div', { class: 'field' }, h('label', { for: 'c-time' }, t('create.time')), timeSel),
      h('label', { class: 'check' }, rated, t('create.rated')),
      challengeTo ? null : h('label', { class: 'check' }, priv, t('create.private')),
      h('fieldset', {}, h('legend', {}, t('create.house')),
        h('label', { class: 'check' }, showLegal, t('create.show_legal')),
        h('label', { class: 'check' }, rotate, t('create.rotate_first')),
        mandatoryRow, limitRow),
      seatsRow,
      h('div', { class: 'row' },
        h('button', { type: 'submit', class: 'primary', 'data-action': challengeTo ? 'send-challenge' : 'create' },
          challengeTo ? t('chal.send', { name: challengeTo.name }) : t('create.submit')),
        challengeTo ? h('button', { type: 'button', onclick: () => { challengeTo = null; renderForm(); } }, t('common.cancel')) : null));
    formBox.appendChild(h('h2', {}, challengeTo ? t('chal.send', { name: challengeTo.name }) : t('create.title')));
    formBox.appendChild(form);
    sync();
  }

  function seatName(game, i) {
    if (game === 'chess4') return t('seat.chess4.' + i);
    if (game === 'chess') return t('seat.chess.' + i);
    return t('create.seat_n', { n: num(i + 1) });
  }

  render();
  renderChallenges();
  if (app.status === 'open') app.send({ t: 'lobby', on: true });

  return {
    onWelcome() { app.send({ t: 'lobby', on: true }); showName(); },
    relabel() { const v = nameInput.value; const untouched = v === shownName; render(); if (untouched) showName(); else nameInput.value = v; },
    onMessage(msg) {
      switch (msg.t) {
        case 'lobby':
          loaded = true;
          players = msg.players || [];
          tables = new Map((msg.tables || []).map((x) => [x.id, x]));
          renderPlayers();
          renderTables();
          break;
        case 'lobby_table': tables.set(msg.table.id, msg.table); renderTables(); break;
        case 'lobby_gone': tables.delete(msg.id); renderTables(); break;
        case 'player_online': players = [...players.filter((p) => p.id !== msg.player.id), msg.player]; renderPlayers(); break;
        case 'player_offline': players = players.filter((p) => p.id !== msg.id); renderPlayers(); break;
        case 'relations': renderPlayers(); break;
        case 'named': showName(); app.toast(t('lobby.name_saved')); break;
        case 'created': app.navigate('/table/' + msg.table); break;
        default: break;
      }
    },
    unmount() { app.send({ t: 'lobby', on: false }); },
  };
}
