// Clock countdown and formatting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remainingNow, effectiveNow, formatClock, isLow, localDigits } from '../js/table-model.js';

test('the running seat counts down from the moment the clocks arrived; others stand still', () => {
  const clocks = { remaining_ms: [60000, 30000], running: 0, move_left_ms: 20000 };
  assert.equal(remainingNow(clocks, 0, 1000, 1500), 59500);
  assert.equal(remainingNow(clocks, 1, 1000, 9000), 30000);
  assert.equal(remainingNow(clocks, 0, 1000, 999999), 0, 'never below zero');
  assert.equal(effectiveNow(clocks, 0, 1000, 2000), 19000, 'the per-move cap is shorter');
  assert.equal(effectiveNow(clocks, 1, 1000, 2000), 30000);
  assert.equal(remainingNow(null, 0, 0, 0), null);
  const perMove = { remaining_ms: [null, null, null, null], running: 2, move_left_ms: 30000 };
  assert.equal(effectiveNow(perMove, 2, 0, 5000), 25000);
  assert.equal(effectiveNow(perMove, 1, 0, 5000), null);
});

test('formatting: h:mm:ss, m:ss, tenths under ten seconds, rounded up', () => {
  assert.equal(formatClock(900000), '15:00');
  assert.equal(formatClock(899001), '15:00');
  assert.equal(formatClock(899000), '14:59');
  assert.equal(formatClock(3723000), '1:02:03');
  assert.equal(formatClock(65000), '1:05');
  assert.equal(formatClock(10000), '0:10');
  assert.equal(formatClock(9999), '10.0');
  assert.equal(formatClock(9901), '10.0');
  assert.equal(formatClock(9900), '9.9');
  assert.equal(formatClock(450), '0.5');
  assert.equal(formatClock(0), '0.0');
  assert.equal(formatClock(-5), '0.0');
  assert.equal(formatClock(null), '');
});

test('low time warning', () => {
  assert.equal(isLow(19000, 900000), true);
  assert.equal(isLow(21000, 900000), false);
  assert.equal(isLow(9000, 60000), true);
  assert.equal(isLow(11000, 60000), false);
  assert.equal(isLow(null, 60000), false);
});

test('Bengali and Devanagari digits for clocks and scores', () => {
  assert.equal(localDigits('15:07', 'bn'), '১৫:০৭');
  assert.equal(localDigits('15:07', 'mr'), '१५:०७');
  assert.equal(localDigits('15:07', 'en'), '15:07');
});
