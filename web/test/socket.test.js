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
