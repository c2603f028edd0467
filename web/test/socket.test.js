// Reconnect schedule from docs/protocol.md "Timings".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryDelay, shouldGiveUp, PING_MS, FATAL } from '../js/net/socket.js';

test('retry after 0.5, 1, 2, 4 s, then every 5 s; give up after 2 minutes', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 20].map(retryDelay), [500, 1000, 2000, 4000, 5000, 5000, 5000]);
  assert.equal(shouldGiveUp(119999), false);
  assert.equal(shouldGiveUp(120000), true);
  assert.equal(PING_MS, 20000);
  assert.ok(FATAL.has('cookies_required') && FATAL.has('client_outdated') && !FATAL.has('table_not_found'));
});

import { Connection } from '../js/net/socket.js';

/** A stand-in WebSocket: records what the client sends; the test plays the server. */
class FakeSocket {
  static all = [];
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; FakeSocket.all.push(this); }
  send(d) { this.sent.push(JSON.parse(d)); }
  close() { this.readyState = 3; }
  open() { this.readyState = 1; this.onopen(); }
  recv(m) { this.onmessage({ data: JSON.stringify(m) }); }
  drop() { this.readyState = 3; this.onclose(); }
}

test('hello on open, moves kept until acked and resent with the same ack and ply after a reconnect', async () => {
  globalThis.WebSocket = FakeSocket;
  FakeSocket.all = [];
  const statuses = [];
  const welcomes = [];
  const c = new Connection('ws://x/ws', { onMessage: () => {}, onStatus: (s) => statuses.push(s), onWelcome: (m, re) => welcomes.push(re) });
  c.connect();
  const ws1 = FakeSocket.all[0];
  ws1.open();
  assert.deepEqual(ws1.sent[0], { t: 'hello', protocol: 1 });
  ws1.recv({ t: 'welcome', protocol: 1, you: { id: 'a', name: 'A' }, online: true });
  assert.deepEqual(welcomes, [false]);
  const ack1 = c.move('t1', 4, 'e2e4');
  const ack2 = c.move('t1', 5, 'g8f6');
  ws1.recv({ t: 'ack', table: 't1', ack: ack1, version: 9 });
  assert.equal(c.unacked.size, 1);
  ws1.drop();
  assert.equal(statuses.at(-1), 'trouble');
  await new Promise((r) => setTimeout(r, 600));
  const ws2 = FakeSocket.all[1];
  ws2.open();
  ws2.recv({ t: 'welcome', protocol: 1, you: { id: 'a', name: 'A' }, online: true });
  assert.deepEqual(welcomes, [false, true]);
  const resent = ws2.sent.filter((m) => m.t === 'move');
  assert.deepEqual(resent, [{ t: 'move', table: 't1', ack: ack2, ply: 5, wire: 'g8f6' }]);
  ws2.recv({ t: 'error', code: 'stale_move', message: '', table: 't1', ack: ack2 });
  assert.equal(c.unacked.size, 0);
  ws2.recv({ t: 'error', code: 'client_outdated', message: '' });
  assert.equal(statuses.at(-1), 'fatal');
  clearInterval(c.pinger);
});
