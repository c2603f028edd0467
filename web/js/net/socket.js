// The websocket to the server: hello/welcome, ping every 20 s, reconnect with backoff (0.5, 1, 2, 4 s, then every
// 5 s; "could not reconnect" after 2 minutes), moves kept until acknowledged and sent again after a reconnect
// (docs/protocol.md "Timings"). The retry schedule is pure and tested; the rest needs a browser.

export const PROTOCOL = 1;
export const PING_MS = 20000;
export const GIVE_UP_MS = 120000;
const DELAYS = [500, 1000, 2000, 4000];

/** Milliseconds to wait before reconnect attempt number `attempt` (0-based). */
export function retryDelay(attempt) {
  return attempt < DELAYS.length ? DELAYS[attempt] : 5000;
}

/** Whether to stop retrying after `elapsedMs` of failed attempts. */
export function shouldGiveUp(elapsedMs) {
  return elapsedMs >= GIVE_UP_MS;
}

// A move refused as `unavailable` (table moving between servers) is resent this often, this long.
export const UNAVAILABLE_RETRY_MS = 400;
export const UNAVAILABLE_GIVE_UP_MS = 15000;

/** Codes after which the server closes the socket and retrying cannot help. */
export const FATAL = new Set(['cookies_required', 'client_outdated']);

/** The socket `web/index.html` opened to `url` before the scripts loaded ({socket, messages, closed}), once. */
function takeEarlySocket(url) {
  if (typeof window === 'undefined' || !window.parlorEarlySocket) return null;
  const early = window.parlorEarlySocket;
  window.parlorEarlySocket = null;
  return early.socket.url === url ? early : (early.socket.close(), null);
}

/**
 * A connection. `url` of the websocket; `onMessage(msg)` for every server message; `onStatus(status, info)` with
 * status 'connecting' | 'open' | 'trouble' (info.retryInMs) | 'lost' | 'fatal' (info.code); `onWelcome(msg,
 * reconnected)` after each welcome (the app re-opens its tables there, then unacknowledged moves are resent).
 */
export class Connection {
  constructor(url, { onMessage, onStatus, onWelcome }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onWelcome = onWelcome;
    this.ws = null;
    this.ready = false;
    this.attempt = 0;
    this.troubleSince = null;
    this.timer = null;
    this.pinger = null;
    this.fatal = false;
    this.welcomed = false;
    this.unacked = new Map(); // ack -> move message
    this.earlyOpen = null; // the `open` the page's early socket sent (index.html), until the page claims it
    this.nextAck = Date.now() % 1000000000;
  }

  connect() {
    clearTimeout(this.timer);
    if (this.fatal) return;
    this.onStatus(this.troubleSince ? 'trouble' : 'connecting', { retryInMs: 0 });
    const early = takeEarlySocket(this.url);
    if (!early && typeof navigator !== 'undefined' && navigator.onLine === false) { this.scheduleRetry(); return; }
    let ws;
    this.earlyOpen = early ? early.open || null : null;
    if (early) ws = early.socket;
    else try { ws = new WebSocket(this.url); } catch { this.scheduleRetry(); return; }
    this.ws = ws;
    // A socket the page opened early said hello (and opened the address's table) when it opened; one still
    // connecting says it here.
    const opening = this.earlyOpen;
    ws.onopen = () => {
      ws.send(JSON.stringify({ t: 'hello', protocol: PROTOCOL }));
      if (opening) ws.send(opening);
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.t === 'welcome') {
        const reconnected = this.welcomed;
        this.welcomed = true;
        this.ready = true;
        this.attempt = 0;
        this.troubleSince = null;
        this.onStatus('open', {});
        clearInterval(this.pinger);
        this.pinger = setInterval(() => this.send({ t: 'ping' }), PING_MS);
        this.onWelcome(msg, reconnected);
        for (const m of this.unacked.values()) this.raw(m);
      }
      if (msg.t === 'ack') this.unacked.delete(msg.ack);
      if (msg.t === 'error' && msg.code === 'unavailable' && this.retryUnavailable(msg.ack)) return;
      if (msg.t === 'error') {
        if (msg.ack !== undefined && msg.ack !== null) this.unacked.delete(msg.ack);
        if (FATAL.has(msg.code)) { this.fatal = true; this.onStatus('fatal', { code: msg.code }); }
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      clearInterval(this.pinger);
      if (this.fatal) return;
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
    if (early) {
      for (const e of early.messages) ws.onmessage(e);
      if (early.closed) ws.onclose();
    }
  }

  /** Whether this socket already sent `msg` (an `open` of the page's table) as the page loaded: true once, so
   * the page asks itself on any later occasion and any later socket. */
  sentEarly(msg) {
    if (this.earlyOpen === null || this.earlyOpen !== JSON.stringify(msg)) return false;
    this.earlyOpen = null;
    return true;
  }

  scheduleRetry() {
    const now = Date.now();
    if (!this.troubleSince) this.troubleSince = now;
    if (shouldGiveUp(now - this.troubleSince)) { this.onStatus('lost', {}); return; }
    const delay = retryDelay(this.attempt++);
    this.onStatus('trouble', { retryInMs: delay });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** The device went offline: drop the socket at once (browsers may keep a dead one open for minutes) and wait
   * for the `online` event or the retry schedule. */
  dropForOffline() {
    if (!this.ws || this.fatal) return;
    const old = this.ws;
    this.ws = null;
    this.ready = false;
    clearInterval(this.pinger);
    try { old.close(); } catch { /* already closed */ }
    this.scheduleRetry();
  }

  /** Try again at once (the "try again" button, or the browser coming back online). */
  retryNow() {
    if (this.ready || this.fatal) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.attempt = 0;
    this.troubleSince = Date.now();
    if (this.ws) { const old = this.ws; this.ws = null; try { old.close(); } catch { /* already closed */ } }
    this.connect();
  }

  /** Send a message now if connected; dropped otherwise (state is re-requested after a reconnect). */
  send(msg) {
    if (this.ready) this.raw(msg);
    return this.ready;
  }

  raw(msg) {
    try { this.ws.send(JSON.stringify(msg)); } catch { /* closed: onclose handles it */ }
  }

  /** Play a move: kept until the server acknowledges or refuses it, and sent again after a reconnect. */
  move(table, ply, wire) {
    const ack = ++this.nextAck;
    const msg = { t: 'move', table, ack, ply, wire };
    this.unacked.set(ack, msg);
    this.send(msg);
    return ack;
  }

  /** Resend a move refused as `unavailable`, quietly, for a while. Returns whether it will. */
  retryUnavailable(ack) {
    const msg = this.unacked.get(ack);
    if (!msg) return false;
    const first = (this.refused ??= new Map()).get(ack) ?? Date.now();
    if (Date.now() - first >= UNAVAILABLE_GIVE_UP_MS) return false;
    this.refused.set(ack, first);
    setTimeout(() => { if (this.unacked.has(ack) && this.ready) this.raw(msg); }, UNAVAILABLE_RETRY_MS);
    return true;
  }

  /** Forget the unacknowledged moves of a table (a full state showed the game moved on). */
  forgetMoves(table, ply) {
    for (const [ack, m] of this.unacked) if (m.table === table && m.ply < ply) this.unacked.delete(ack);
  }
}
