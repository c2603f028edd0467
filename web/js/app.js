// Parlor's web client: starts the page, routes by location.pathname, keeps the connection and the player's
// identity, marks and challenges, and hands server messages to the page being shown.

import { h, replace, clear, s as svgEl } from './dom.js';
import { Connection } from './net/socket.js';
import { t, num, initLanguage, loadLanguage, setLanguage, language, LANG_NAMES, LANG_CODES, onLanguage } from './i18n/index.js';
import * as sound from './sound.js';
import * as notify from './sound.js';

// Each page is loaded when first shown; the server preloads the one its address asks for.
const PAGES = {
  lobby: () => import('./pages/lobby.js'),
  table: () => import('./pages/table.js'),
  history: () => import('./pages/history.js'),
  rules: () => import('./pages/rules.js'),
  analysis: () => import('./pages/analysis.js'),
};

const ROUTES = [
  [/^\/$/, 'lobby', () => ({})],
  [/^\/t\/([A-Za-z0-9_-]+)\/?$/, 'table', (m) => ({ code: m[1] })],
  [/^\/table\/([A-Za-z0-9_-]+)\/?$/, 'table', (m) => ({ id: m[1] })],
  [/^\/game\/([A-Za-z0-9_-]+)\/?$/, 'history', (m) => ({ game: m[1] })],
  [/^\/history\/?$/, 'history', () => ({})],
  [/^\/history\/([^/]+)\/?$/, 'history', (m) => ({ player: decodeURIComponent(m[1]) })],
  [/^\/analysis\/?$/, 'analysis', () => ({})],
  [/^\/rules\/?$/, 'rules', () => ({ game: 'chess' })],
  [/^\/rules\/(chess|draughts|chess4)\/?$/, 'rules', (m) => ({ game: m[1] })],
];

/** Everything pages share. */
export const app = {
  conn: null,
  me: null,
  online: true,
  marks: new Map(), // player id -> Set of 'block' | 'mute' | 'favourite'
  challenges: new Map(), // id -> challenge message
  page: null,
  status: 'connecting',
  main: null,
  send: (msg) => app.conn && app.conn.send(msg),
  has: (player, mark) => !!(app.marks.get(player) && app.marks.get(player).has(mark)),
  navigate,
  say,
  toast,
  confirm,
  rerender: () => {},
  myTurn: false,
  /** The table page says whether it is this player's move (the tab's title and icon show it). */
  setMyTurn(on) { if (app.myTurn !== !!on) { app.myTurn = !!on; showAttention(); } },
};

function wsUrl() {
  return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
}

/** Announce in the live region (screen readers). */
function say(text) {
  const live = document.getElementById('live');
  if (!live) return;
  live.textContent = '';
  // A fresh text node so repeated texts are read again.
  setTimeout(() => { live.textContent = text; }, 30);
}

/** A short notice at the top of the page. kind: 'info' | 'error'. */
function toast(text, kind = 'info') {
  const box = document.getElementById('toasts');
  const el = h('div', { class: 'toast ' + kind, role: kind === 'error' ? 'alert' : 'status' }, text);
  box.appendChild(el);
  setTimeout(() => el.remove(), kind === 'error' ? 7000 : 4000);
}

/** A yes/no question; resolves true or false. */
function confirm(text, yes = t('common.yes'), no = t('common.no')) {
  return new Promise((resolve) => {
    const dlg = h('dialog', { class: 'confirm' });
    const done = (v) => { dlg.close(); dlg.remove(); resolve(v); };
    dlg.appendChild(h('p', {}, text));
    dlg.appendChild(h('div', { class: 'row' },
      h('button', { type: 'button', class: 'primary', 'data-action': 'confirm-yes', onclick: () => done(true) }, yes),
      h('button', { type: 'button', 'data-action': 'confirm-no', onclick: () => done(false) }, no)));
    dlg.addEventListener('cancel', () => done(false));
    document.body.appendChild(dlg);
    dlg.showModal();
  });
}

function navigate(path, replaceState = false) {
  if (replaceState) history.replaceState({}, '', path);
  else if (path !== location.pathname) history.pushState({}, '', path);
  route();
}

let routing = 0;
// A table's messages that come before the first page is shown (index.html's early socket opened the table of
// the address) wait for that page.
let beforePage = [];

/** Show the page of the current address (loading its module the first time). */
async function route() {
  const seq = ++routing;
  if (app.page && app.page.unmount) app.page.unmount();
  app.page = null;
  const path = location.pathname;
  for (const [re, name, params] of ROUTES) {
    const m = re.exec(path);
    if (!m) continue;
    let mod;
    try {
      mod = await PAGES[name]();
    } catch {
      // The page's script did not load (connection lost): say so; the next navigation tries again.
      if (seq === routing) clear(app.main).appendChild(h('p', { class: 'notice' }, t('err.unknown')));
      return;
    }
    if (seq !== routing) return; // the player went on meanwhile
    app.page = mod.mount(app, clear(app.main), params(m)) || null;
    const waiting = beforePage || [];
    beforePage = null;
    if (app.page && app.page.onMessage) for (const msg of waiting) app.page.onMessage(msg);
    highlightNav();
    return;
  }
  clear(app.main).appendChild(h('p', { class: 'notice' }, t('err.table_not_found')));
}

function highlightNav() {
  for (const a of document.querySelectorAll('.nav a')) {
    const href = a.getAttribute('href');
    a.classList.toggle('active', href === '/' ? location.pathname === '/' : location.pathname.startsWith(href));
  }
}

/** The connection banner: trouble (retrying), could not reconnect, cookies, outdated. */
function showStatus(status, info) {
  app.status = status;
  const bar = document.getElementById('status');
  clear(bar);
  bar.hidden = status === 'open' || status === 'connecting';
  bar.className = 'status ' + status;
  if (status === 'trouble' && navigator.onLine === false) {
    bar.appendChild(h('span', { 'data-status': 'trouble' }, t('conn.offline_browser')));
  } else if (status === 'trouble') {
    bar.appendChild(h('span', { 'data-status': 'trouble' }, t('conn.trouble', { s: Math.max(1, Math.round((info.retryInMs || 0) / 1000)) })));
  } else if (status === 'lost') {
    bar.appendChild(h('span', { 'data-status': 'lost' }, t('conn.lost')));
    bar.appendChild(h('button', { type: 'button', 'data-action': 'retry', onclick: () => app.conn.retryNow() }, t('conn.retry')));
  } else if (status === 'fatal' && info.code === 'cookies_required') {
    bar.appendChild(h('span', { 'data-status': 'cookies' }, t('conn.cookies')));
  } else if (status === 'fatal' && info.code === 'client_outdated') {
    bar.appendChild(h('span', { 'data-status': 'outdated' }, t('conn.outdated')));
    bar.appendChild(h('button', { type: 'button', 'data-action': 'reload', onclick: () => location.reload() }, t('conn.reload')));
  }
  app.statusInfo = info;
}

function onMessage(msg) {
  switch (msg.t) {
    case 'named':
      app.me = msg.you;
      renderHeader();
      break;
    case 'relations':
      app.marks = new Map();
      for (const [id, mark] of msg.marks || []) {
        if (!app.marks.has(id)) app.marks.set(id, new Set());
        app.marks.get(id).add(mark);
      }
      break;
    case 'challenge':
      onChallenge(msg);
      break;
    case 'error':
      if (!msg.table && !['cookies_required', 'client_outdated', 'confirm_blocked'].includes(msg.code) && !(app.page && app.page.handlesErrors)) {
        toast(t('err.' + msg.code) === 'err.' + msg.code ? t('err.unknown') : t('err.' + msg.code), 'error');
      }
      break;
    default:
      break;
  }
  if (app.page && app.page.onMessage) app.page.onMessage(msg);
  else if (beforePage && beforePage.length < 100 && ['table', 'event', 'error'].includes(msg.t)) beforePage.push(msg);
}

function onChallenge(msg) {
  const mine = app.me && msg.from.id === app.me.id;
  const other = mine ? msg.to : msg.from;
  if (msg.state === 'pending') app.challenges.set(msg.id, msg);
  else app.challenges.delete(msg.id);
  if (msg.state === 'accepted' && msg.table) {
    toast(t(mine ? 'chal.accepted' : 'chal.you_accepted', { name: other.name }));
    navigate('/table/' + msg.table);
  } else if (msg.state === 'declined' && mine) toast(t('chal.declined', { name: other.name }), 'error');
  else if (msg.state === 'cancelled' && !mine) toast(t('chal.cancelled', { name: other.name }));
  else if (msg.state === 'gone') toast(t('chal.gone', { name: other.name }));
  if (msg.state === 'pending' && !mine) { say(t('chal.incoming', { name: other.name, game: t('game.' + msg.spec.game), time: '' })); sound.play('turn'); }
  renderChallenges();
  showAttention();
}

/** The challenges box is shown on every page (a challenge may come any time). */
export function renderChallenges() {
  const box = document.getElementById('challenges');
  if (!box) return;
  clear(box);
  box.hidden = app.challenges.size === 0;
  for (const c of app.challenges.values()) {
    const mine = app.me && c.from.id === app.me.id;
    const other = mine ? c.to : c.from;
    const params = { name: other.name, game: t('game.' + c.spec.game), time: tcLabel(c.spec) };
    const row = h('div', { class: 'challenge', 'data-challenge': c.id, 'data-state': c.state },
      h('span', {}, t(mine ? 'chal.outgoing' : 'chal.incoming', params)));
    if (mine) {
      row.appendChild(h('button', { type: 'button', 'data-action': 'challenge-cancel', onclick: () => app.send({ t: 'challenge_cancel', id: c.id }) }, t('chal.cancel')));
    } else {
      row.appendChild(h('button', { type: 'button', class: 'primary', 'data-action': 'challenge-accept', onclick: () => app.send({ t: 'challenge_answer', id: c.id, answer: 'accept' }) }, t('chal.accept')));
      row.appendChild(h('button', { type: 'button', 'data-action': 'challenge-decline', onclick: () => app.send({ t: 'challenge_answer', id: c.id, answer: 'decline' }) }, t('chal.decline')));
    }
    box.appendChild(row);
  }
}

/** A time control in words. */
export function tcLabel(spec) {
  // No clock in the spec means the game's default: 60 s a turn at four-player chess, else 15 min and 60 s a move.
  const time = (spec && spec.time) || (spec && spec.game === 'chess4'
    ? { base_ms: null, increment_ms: 0, per_move_ms: 60000 }
    : { base_ms: 900000, increment_ms: 0, per_move_ms: 60000 });
  const parts = [];
  if (time.base_ms !== null && time.base_ms !== undefined) {
    const m = num(Math.round(time.base_ms / 6000) / 10);
    const i = Math.round((time.increment_ms || 0) / 1000);
    parts.push(i ? t('tc.base', { m, i: num(i) }) : t('tc.base_only', { m }));
  }
  if (time.per_move_ms) parts.push(t('tc.move', { s: num(Math.round(time.per_move_ms / 1000)) }));
  return parts.length ? parts.join(' · ') : t('tc.untimed');
}

function renderHeader() {
  const bar = document.getElementById('controls');
  if (!bar) return;
  const langSel = h('select', { id: 'lang', 'aria-label': t('nav.language'), onchange: (e) => setLanguage(e.target.value, localStorage) },
    LANG_CODES.map((c) => h('option', { value: c, selected: c === language() }, LANG_NAMES[c])));
  const theme = localStorage.getItem('parlor.theme') || 'auto';
  const themeSel = h('select', { id: 'theme', 'aria-label': t('theme.label'), onchange: (e) => setTheme(e.target.value) },
    ['auto', 'light', 'dark'].map((v) => h('option', { value: v, selected: v === theme }, t('theme.' + v))));
  const muted = sound.isMuted();
  const mute = h('button', { type: 'button', id: 'mute', class: 'icon', 'aria-pressed': String(!muted), title: t(muted ? 'sound.off' : 'sound.on'),
    'aria-label': t(muted ? 'sound.off' : 'sound.on'), onclick: () => { sound.setMuted(!sound.isMuted()); renderHeader(); } }, speaker(muted));
  const presence = h('button', { type: 'button', id: 'presence', class: 'icon ' + (app.online ? 'on' : 'off'), 'data-online': String(app.online),
    title: t(app.online ? 'presence.online' : 'presence.offline'), 'aria-label': t(app.online ? 'presence.go_offline' : 'presence.go_online'),
    onclick: () => { app.online = !app.online; app.send({ t: 'presence', online: app.online }); renderHeader(); } }, app.online ? '●' : '○');
  const notifyOn = notify.isOn();
  const bell = notify.supported() ? h('button', { type: 'button', id: 'notify', class: 'icon', 'aria-pressed': String(notifyOn),
    title: t(notifyOn ? 'notify.on' : 'notify.off'), 'aria-label': t(notifyOn ? 'notify.on' : 'notify.off'),
    onclick: async () => {
      const on = await notify.setOn(!notify.isOn());
      renderHeader();
      toast(t(on ? 'notify.turned_on' : notify.supported() && Notification.permission === 'denied' ? 'notify.denied' : 'notify.turned_off'));
    } }, bellIcon(notifyOn)) : null;
  replace(bar, presence, mute, bell, themeSel, langSel);
  replace(document.getElementById('brand'), t('app.name'));
  replace(document.querySelector('.nav'),
    h('a', { href: '/', 'data-nav': 'lobby' }, t('nav.lobby')),
    h('a', { href: '/history', 'data-nav': 'history' }, t('nav.history')),
    h('a', { href: '/analysis', 'data-nav': 'analysis' }, t('nav.analysis')),
    h('a', { href: '/rules/chess', 'data-nav': 'rules' }, t('nav.rules')));
  document.documentElement.lang = language();
  showAttention();
  highlightNav();
}

let lastReason = '';

/** The tab says when this player is wanted (their move, or a challenge waits), in its title and its icon, so a
 * player in another tab sees it; the table page sets `app.myTurn`. */
function showAttention() {
  const challenged = app.me && [...app.challenges.values()].some((c) => c.state === 'pending' && c.from.id !== app.me.id);
  const why = app.myTurn ? t('title.your_move') : challenged ? t('title.challenge') : null;
  document.title = why ? `● ${why} · ${t('app.name')}` : t('app.name');
  // A new reason to be here (the move came round, a challenge arrived): tell the player once.
  const reason = app.myTurn ? 'turn' : challenged ? 'challenge' : '';
  if (reason && reason !== lastReason) notify.tell(`${why} · ${t('app.name')}`, t(reason === 'turn' ? 'notify.turn_body' : 'notify.challenge_body'));
  lastReason = reason;
  document.documentElement.dataset.attention = why ? (app.myTurn ? 'turn' : 'challenge') : '';
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.href = why ? 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d8473d"/></svg>') : 'data:,';
}

/** A bell drawn in SVG, crossed out when notifications are off. */
function bellIcon(on) {
  return svgEl('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true' },
    svgEl('path', { d: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0', fill: on ? 'currentColor' : 'none', stroke: 'currentColor', 'stroke-width': '1.8' }),
    on ? null : svgEl('path', { d: 'M4 4l16 16', stroke: 'currentColor', 'stroke-width': '2' }));
}

/** A speaker drawn in SVG (emoji fonts are not everywhere), crossed out when muted. */
function speaker(muted) {
  return svgEl('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true' },
    svgEl('path', { d: 'M3 9h4l5-4v14l-5-4H3z', fill: 'currentColor' }),
    muted ? svgEl('path', { d: 'M16 9l5 6M21 9l-5 6', stroke: 'currentColor', 'stroke-width': '2', fill: 'none' })
      : svgEl('path', { d: 'M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12', stroke: 'currentColor', 'stroke-width': '2', fill: 'none' }));
}

function setTheme(v) {
  localStorage.setItem('parlor.theme', v);
  if (v === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = v;
}

function start() {
  const strings = loadLanguage(initLanguage(localStorage, navigator.languages || [navigator.language]));
  const theme = localStorage.getItem('parlor.theme');
  if (theme && theme !== 'auto') document.documentElement.dataset.theme = theme;
  app.main = document.getElementById('main');
  // Internal links route without reloading.
  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a[href^="/"]');
    if (!a || a.target || a.hasAttribute('download') || e.ctrlKey || e.metaKey || e.shiftKey || a.getAttribute('href').startsWith('/api/')) return;
    e.preventDefault();
    navigate(a.getAttribute('href'));
  });
  document.addEventListener('pointerdown', () => sound.unlock(), { once: false, passive: true });
  document.addEventListener('keydown', () => sound.unlock(), { passive: true });
  window.addEventListener('popstate', route);
  // Notices already shown were written in the old language: drop them with the rest of the old words.
  onLanguage(() => { clear(document.getElementById('toasts')); renderHeader(); renderChallenges(); if (app.status !== 'open') showStatus(app.status, app.statusInfo || {}); if (app.page && app.page.relabel) app.page.relabel(); else route(); });
  app.conn = new Connection(wsUrl(), {
    onMessage,
    onStatus: showStatus,
    onWelcome: (msg, reconnected) => {
      app.me = msg.you;
      app.online = msg.online;
      renderHeader();
      if (reconnected) toast(t('conn.back'));
      if (app.page && app.page.onWelcome) app.page.onWelcome(reconnected);
    },
  });
  window.addEventListener('online', () => app.conn.retryNow());
  window.addEventListener('offline', () => app.conn.dropForOffline());
  // The socket opens while the strings and the piece sprite load; nothing is drawn before the strings are here.
  app.conn.connect();
  Promise.allSettled([strings, loadSprite()]).then(async () => {
    renderHeader();
    if (app.status && app.status !== 'open') showStatus(app.status, app.statusInfo || {});
    await route();
    document.documentElement.dataset.started = '1';
  });
}

/** The piece sprite in the page, so the board can `<use href="#wK">`: the server puts it there; else (a page
 * served without it) it is fetched and inlined once (the file stays the one source). */
async function loadSprite() {
  if (document.getElementById('wK')) return;
  try {
    const res = await fetch(new URL('../img/pieces.svg', import.meta.url));
    const text = await res.text();
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = doc.documentElement;
    svg.setAttribute('aria-hidden', 'true');
    svg.style.cssText = 'position:absolute;width:0;height:0;overflow:hidden';
    document.body.insertBefore(document.importNode(svg, true), document.body.firstChild);
  } catch {
    /* no pieces: the board still shows squares and labels */
  }
}

start();
