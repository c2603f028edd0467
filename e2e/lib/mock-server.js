// A stand-in server for the static smoke test: serves web/ the way `parlor serve` does (index.html for every
// route, assets under /a/<hash>/ with __ASSETS__ replaced) and answers a few protocol messages with canned data,
// so the pages can be loaded and looked at before the real server exists. It implements no game.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { extname, join, normalize } from 'node:path';

const WEB = new URL('../../web/', import.meta.url).pathname;
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.html': 'text/html; charset=utf-8' };
const HASH = 'dev0';

const START = {
  chess: 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
  'draughts/english': 'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,K15',
  chess4: 'R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3',
};
const LEGAL = {
  chess: [{ wire: 'f1c4', from: [5, 0], to: [2, 3] }, { wire: 'f1b5', from: [5, 0], to: [1, 4] }, { wire: 'd2d4', from: [3, 1], to: [3, 3] }],
  'draughts/english': [{ wire: '22-18', from: [2, 2], to: [3, 3] }],
  chess4: [{ wire: 'h2-h4', from: [7, 1], to: [7, 3] }],
};
const MOVES = {
  chess: [{ seat: 0, wire: 'e2e4', display: 'e4' }, { seat: 1, wire: 'e7e5', display: 'e5' }, { seat: 0, wire: 'g1f3', display: 'Nf3' }, { seat: 1, wire: 'b8c6', display: 'Nc6' }],
  'draughts/english': [],
  chess4: [],
};

function tableState(id, game, you) {
  const four = game === 'chess4';
  const names = ['Ana', 'Bo', 'Chitra', 'Dev'];
  const seats = Array.from({ length: four ? 4 : 2 }, (_, i) => (four && i > 0
    ? { player: null, cpu: 'medium', away: false }
    : { player: { id: 'p' + i, name: names[i] }, cpu: null, away: i === 1 }));
  return {
    id, code: id === 'private1' ? 'K7Q2' : null,
    spec: { game, time: four ? { base_ms: null, increment_ms: 0, per_move_ms: 30000 } : { base_ms: 900000, increment_ms: 0, per_move_ms: 60000 }, rated: false, private: id === 'private1', rules: { show_legal: true, rotate_first: true, mandatory_capture: true, move_limit: null }, seats: [] },
    version: 7, seats,
    game: { id: 'g-' + id, start: START[game], position: START[game], moves: MOVES[game], turn: 0, legal: LEGAL[game],
      clocks: four ? { remaining_ms: [null, null, null, null], running: 0, move_left_ms: 30000 } : { remaining_ms: [842000, 17000], running: 0, move_left_ms: 60000 },
      points: four ? [0, 3, 0, 1] : [], eliminated: four ? [false, false, false, true] : [], check: [], outcome: null, draw_offer: null },
    spectators: 2, rematch: [], you,
  };
}

function lobby() {
  return { t: 'lobby',
    tables: [
      { id: 'chess1', game: 'chess', time: { base_ms: 900000, increment_ms: 0, per_move_ms: 60000 }, rated: true, seats: [{ player: { id: 'p1', name: 'রাহুল' }, cpu: null, away: false }, { player: null, cpu: null, away: false }], playing: false },
      { id: 'four1', game: 'chess4', time: { base_ms: null, increment_ms: 0, per_move_ms: 30000 }, rated: false, seats: [{ player: { id: 'p2', name: 'Meera' }, cpu: null, away: false }, { player: null, cpu: 'easy', away: false }, { player: null, cpu: null, away: false }, { player: null, cpu: null, away: false }], playing: false },
    ],
    players: [{ id: 'p3', name: 'সুমন', favourite: true }, { id: 'p4', name: 'अनिता', favourite: false }, { id: 'p5', name: '<b>not bold</b>', favourite: false }] };
}

function frame(text) {
  const data = Buffer.from(text);
  const len = data.length;
  const head = len < 126 ? Buffer.from([0x81, len]) : Buffer.from([0x81, 126, len >> 8, len & 255]);
  return Buffer.concat([head, data]);
}

let droppedOnce = false;

function onSocket(sock, cookie) {
  let buf = Buffer.alloc(0);
  const send = (m) => sock.write(frame(JSON.stringify(m)));
  sock.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 2) {
      const op = buf[0] & 15;
      let len = buf[1] & 127;
      let off = 2;
      if (len === 126) { len = buf.readUInt16BE(2); off = 4; }
      if (buf.length < off + 4 + len) return;
      const mask = buf.subarray(off, off + 4);
      const payload = Buffer.from(buf.subarray(off + 4, off + 4 + len)).map((b, i) => b ^ mask[i % 4]);
      buf = buf.subarray(off + 4 + len);
      if (op === 8) { sock.end(); return; }
      if (op !== 1) continue;
      let msg;
      try { msg = JSON.parse(payload.toString()); } catch { continue; }
      if (msg.t === 'hello' && !cookie) { send({ t: 'error', code: 'cookies_required', message: 'cookies' }); sock.end(); return; }
      if (msg.t === 'hello' && cookie === 'old') { send({ t: 'error', code: 'client_outdated', message: 'reload' }); sock.end(); return; }
      if (msg.t === 'hello') send({ t: 'welcome', protocol: 1, you: { id: 'p0', name: 'Ana' }, online: true });
      else if (msg.t === 'open' && msg.table === 'drop1' && !droppedOnce) { droppedOnce = true; sock.destroy(); return; }
      else if (msg.t === 'lobby' && msg.on) send(lobby());
      else if (msg.t === 'ping') send({ t: 'pong' });
      else if (msg.t === 'history') send({ t: 'history', player: 'p0', games: [{ id: 'demo', game: 'chess', players: ['Ana', 'Bo'], seat: 0, outcome: { result: 'decided', places: [1, 2], winner: 0, reason: 'resignation', score: '1-0' }, rating: null, ended_ms: 1764500000000 }] });
      else if (msg.t === 'open') {
        const id = msg.table || 'private1';
        if (id === 'missing') send({ t: 'error', code: 'table_not_found', message: 'no such table', table: id });
        else if (id === 'promo1') {
          const st = tableState(id, 'chess', 0);
          st.game.position = '4k3/1P6/8/8/8/8/8/4K3 w - - 0 40';
          st.game.legal = ['q', 'r', 'b', 'n'].map((p) => ({ wire: 'b7b8' + p, from: [1, 6], to: [1, 7], promotion: p }))
            .concat([{ wire: 'e1d2', from: [4, 0], to: [3, 1] }]);
          send({ t: 'table', state: st });
        } else if (id === 'draughts2') {
          const st = tableState(id, 'draughts/english', 1);
          st.game.position = 'W:WK9:B14,15,22,23';
          st.game.turn = 1;
          st.game.legal = [
            { wire: '9x18x27', from: [1, 5], to: [5, 1], path: [[3, 3], [5, 1]], captures: [[2, 4], [4, 2]] },
            { wire: '9x20x27', from: [1, 5], to: [5, 1], path: [[5, 5], [7, 3], [5, 1]], captures: [[2, 4], [4, 4], [6, 2]] },
          ];
          send({ t: 'table', state: st });
        } else if (id === 'over1') {
          const st = tableState(id, 'chess', 1);
          st.game.outcome = { result: 'decided', places: [1, 2], winner: 0, reason: 'checkmate', score: '1-0' };
          st.game.turn = null; st.game.legal = []; st.game.check = [[4, 7]]; st.rematch = [0];
          send({ t: 'table', state: st });
          send({ t: 'event', table: id, v: 8, event: { e: 'chat', from: { id: 'p1', name: 'Bo' }, text: 'good game <i>!</i>', at_ms: 1 } });
          send({ t: 'event', table: id, v: 9, event: { e: 'spectators', count: 5 } });
        } else send({ t: 'table', state: tableState(id, id.startsWith('draughts') ? 'draughts/english' : id.startsWith('four') ? 'chess4' : 'chess', Number(id.split('-')[1] || 0)) });
      }
    }
  });
  sock.on('error', () => {});
}

/** Start on a free port; resolves {url, close}. */
export async function startMock() {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    try {
      if (url.pathname.startsWith(`/a/${HASH}/`)) {
        const rel = normalize(url.pathname.slice(`/a/${HASH}/`.length));
        if (rel.startsWith('..')) throw new Error('outside');
        const body = await readFile(join(WEB, rel));
        res.writeHead(200, { 'content-type': TYPES[extname(rel)] || 'application/octet-stream' });
        res.end(body);
        return;
      }
      if (url.pathname === '/api/game/demo') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'demo', game: 'chess', players: [{ id: 'p0', name: 'Ana' }, { id: 'p1', name: 'Bo' }],
          start: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
          // As the server sends them: every move with the position after it.
          moves: [
            ['e2e4', 'e4', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'],
            ['e7e5', 'e5', 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'],
            ['g1f3', 'Nf3', 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'],
            ['b8c6', 'Nc6', 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'],
            ['f1c4', 'Bc4', 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3'],
            ['g8f6', 'Nf6', 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4'],
            ['e1g1', 'O-O', 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4'],
          ].map(([wire, display, position], i) => ({ seat: i % 2, wire, display, position })),
          outcome: { result: 'decided', places: [1, 2], winner: 0, reason: 'resignation', score: '1-0' } }));
        return;
      }
      if (url.pathname === '/api/game/demo/review') {
        // Never reviewed: the replay offers a review.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ state: 'none' }));
        return;
      }
      if (url.pathname.startsWith('/api/')) { res.writeHead(404); res.end(); return; }
      const html = (await readFile(join(WEB, 'index.html'), 'utf8')).replaceAll('__ASSETS__', HASH);
      const cookie = url.searchParams.get('cookie');
      const headers = { 'content-type': TYPES['.html'] };
      if (cookie !== 'none') headers['set-cookie'] = `parlor_id=${cookie || 'test'}; Path=/; HttpOnly; SameSite=Lax`;
      res.writeHead(200, headers);
      res.end(html);
    } catch {
      res.writeHead(404); res.end();
    }
  });
  server.on('upgrade', (req, sock) => {
    const accept = createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
    sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    const m = /parlor_id=([^;]+)/.exec(req.headers.cookie || '');
    onSocket(sock, m ? m[1] : null);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

// `node e2e/lib/mock-server.js` serves it by hand for a look in a browser.
if (import.meta.url === `file://${process.argv[1]}`) startMock().then((m) => console.log(m.url));
void HASH;
