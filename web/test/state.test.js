// The move-input state machine: select, deselect, destinations, promotion and path choices, typed moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idle, click, dragStart, drop, choose, refresh, matchTyped } from '../js/board/state.js';
import { parsePosition } from '../js/board/geometry.js';
import { boardOf, pdnSquare } from '../js/board/geometry.js';

const legal = [
  { wire: 'e2e4', from: [4, 1], to: [4, 3] },
  { wire: 'e2e3', from: [4, 1], to: [4, 2] },
  { wire: 'g1f3', from: [6, 0], to: [5, 2] },
  { wire: 'b7b8q', from: [1, 6], to: [1, 7], promotion: 'q' },
  { wire: 'b7b8r', from: [1, 6], to: [1, 7], promotion: 'r' },
  { wire: 'b7b8b', from: [1, 6], to: [1, 7], promotion: 'b' },
  { wire: 'b7b8n', from: [1, 6], to: [1, 7], promotion: 'n' },
];

test('click selects a movable piece and shows its destinations', () => {
  const { state, play } = click(idle(), legal, [4, 1]);
  assert.equal(play, null);
  assert.deepEqual(state.selected, [4, 1]);
  assert.deepEqual(state.dests, [[4, 3], [4, 2]]);
});

test('click on an empty or immovable square selects nothing', () => {
  assert.equal(click(idle(), legal, [0, 0]).state.selected, null);
});

test('click-click plays; clicking the same square deselects; another piece reselects', () => {
  const s1 = click(idle(), legal, [4, 1]).state;
  assert.deepEqual(click(s1, legal, [4, 3]), { state: idle(), play: 'e2e4' });
  assert.equal(click(s1, legal, [4, 1]).state.selected, null);
  const s2 = click(s1, legal, [6, 0]).state;
  assert.deepEqual(s2.selected, [6, 0]);
  assert.equal(click(s1, legal, [0, 5]).state.selected, null, 'a square that is no destination deselects');
});

test('promotion asks which piece, then plays the choice', () => {
  const s1 = click(idle(), legal, [1, 6]).state;
  assert.deepEqual(s1.dests, [[1, 7]]);
  const { state, play } = click(s1, legal, [1, 7]);
  assert.equal(play, null);
  assert.equal(state.pending.kind, 'promotion');
  assert.equal(state.pending.options.length, 4);
  assert.deepEqual(choose(state, 'b7b8n'), { state: idle(), play: 'b7b8n' });
  assert.equal(choose(state, 'zzz').play, null);
  assert.equal(click(state, legal, [0, 0]).state.pending, null, 'a click elsewhere cancels the choice');
});

test('draughts: two captures with the same from and to ask for the path', () => {
  const dl = [
    { wire: '1x10x19', from: [1, 7], to: [3, 3], path: [[3, 5], [5, 3], [3, 3]], captures: [[2, 6], [4, 4], [4, 4]] },
    { wire: '1x10x19b', from: [1, 7], to: [3, 3], path: [[3, 5], [1, 3], [3, 3]], captures: [[2, 6], [2, 4], [2, 2]] },
    { wire: '5-9', from: [0, 6], to: [1, 5] },
  ];
  const s1 = click(idle(), dl, [1, 7]).state;
  const r = click(s1, dl, [3, 3]);
  assert.equal(r.state.pending.kind, 'path');
  assert.equal(choose(r.state, '1x10x19b').play, '1x10x19b');
});

test('drag: start selects, drop plays, drop on start keeps the selection, drop elsewhere deselects', () => {
  const s = dragStart(idle(), legal, [6, 0]).state;
  assert.deepEqual(s.selected, [6, 0]);
  assert.equal(drop(s, legal, [5, 2]).play, 'g1f3');
  assert.deepEqual(drop(s, legal, [6, 0]).state.selected, [6, 0]);
  assert.equal(drop(s, legal, [0, 4]).state.selected, null);
  assert.equal(dragStart(idle(), legal, [0, 0]).state.selected, null);
});

test('refresh drops a selection that can no longer move', () => {
  const s = click(idle(), legal, [4, 1]).state;
  assert.deepEqual(refresh(s, legal).selected, [4, 1]);
  assert.equal(refresh(s, []).selected, null);
});

test('typed chess moves: wire, coordinates, SAN, castling, promotion', () => {
  const pos = parsePosition('chess', 'r3k2r/1P6/8/3pP3/8/8/8/R3K1NR w KQkq d6 0 1');
  const lm = [
    { wire: 'e5d6', from: [4, 4], to: [3, 5], captures: [[3, 4]] },
    { wire: 'e5e6', from: [4, 4], to: [4, 5] },
    { wire: 'e1c1', from: [4, 0], to: [2, 0] },
    { wire: 'g1f3', from: [6, 0], to: [5, 2] },
    { wire: 'a1a8', from: [0, 0], to: [0, 7] },
    { wire: 'h1h7', from: [7, 0], to: [7, 6] },
    ...['q', 'r', 'b', 'n'].map((p) => ({ wire: 'b7b8' + p, from: [1, 6], to: [1, 7], promotion: p })),
  ];
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'e5d6'), { wire: 'e5d6' });
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'exd6'), { wire: 'e5d6' });
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'e6'), { wire: 'e5e6' });
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'Nf3+'), { wire: 'g1f3' });
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'O-O-O'), { wire: 'e1c1' });
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, '0-0-0'), { wire: 'e1c1' });
  assert.equal(matchTyped('chess', lm, pos.pieces, 'O-O'), null);
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'Rxa8'), { wire: 'a1a8' });
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'b8=N'), { wire: 'b7b8n' });
  assert.deepEqual(matchTyped('chess', lm, pos.pieces, 'b7-b8q'), { wire: 'b7b8q' });
  assert.equal(matchTyped('chess', lm, pos.pieces, 'b8').options.length, 4, 'a promotion without a letter asks which piece');
  assert.equal(matchTyped('chess', lm, pos.pieces, 'Qd4'), null);
  assert.equal(matchTyped('chess', lm, pos.pieces, ''), null);
});

test('typed draughts moves: 11-15, 22x15, full capture path', () => {
  const b = boardOf('draughts/english');
  const q = (n) => pdnSquare(b, n);
  const dl = [
    { wire: '9-14', from: q(9), to: q(14) },
    { wire: '9x18', from: q(9), to: q(18), captures: [q(14)] },
    { wire: '9x18x27', from: q(9), to: q(27), path: [q(18), q(27)], captures: [q(14), q(23)] },
    { wire: '9x16x27', from: q(9), to: q(27), path: [q(16), q(27)], captures: [q(13), q(20)] },
  ];
  assert.deepEqual(matchTyped('draughts/english', dl, new Map(), '9-14'), { wire: '9-14' });
  assert.deepEqual(matchTyped('draughts/english', dl, new Map(), '9x18'), { wire: '9x18' });
  assert.equal(matchTyped('draughts/english', dl, new Map(), '9x27').options.length, 2);
  assert.deepEqual(matchTyped('draughts/english', dl, new Map(), '9x16x27'), { wire: '9x16x27' });
  assert.equal(matchTyped('draughts/english', dl, new Map(), '9x17x27'), null);
  assert.equal(matchTyped('draughts/english', dl, new Map(), '9-10'), null);
});
