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

import { Connection, UNAVAILABLE_RETRY_MS } from '../js/net/socket.js';

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

test('a move refused as unavailable (its table is moving to another server) is sent again, quietly', async () => {
  globalThis.WebSocket = FakeSocket;
  FakeSocket.all = [];
  const seen = [];
  const c = new Connection('ws://x/ws', { onMessage: (m) => seen.push(m.t), onStatus: () => {}, onWelcome: () => {} });
  c.connect();
  const ws = FakeSocket.all[0];
  ws.open();
  ws.recv({ t: 'welcome', protocol: 1, you: { id: 'a', name: 'A' }, online: true });
  const ack = c.move('t1', 4, 'e2e4');
  ws.recv({ t: 'error', code: 'unavailable', message: '', table: 't1', ack });
  assert.equal(c.unacked.size, 1, 'still waiting for its acknowledgement');
  assert.ok(!seen.includes('error'), 'the page is not told');
  await new Promise((r) => setTimeout(r, UNAVAILABLE_RETRY_MS + 100));
  const sent = ws.sent.filter((m) => m.t === 'move');
  assert.equal(sent.length, 2);
  assert.deepEqual(sent[1], sent[0]);
  ws.recv({ t: 'ack', table: 't1', ack, version: 9 });
  assert.equal(c.unacked.size, 0);
  // Another move refused for good: the page hears of it.
  const other = c.move('t1', 5, 'g8f6');
  ws.recv({ t: 'error', code: 'illegal_move', message: '', table: 't1', ack: other });
  assert.equal(c.unacked.size, 0);
  assert.ok(seen.includes('error'));
  clearInterval(c.pinger);
});
