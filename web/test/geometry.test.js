// Board geometry: the three boards, turning per seat, square names and draughts numbering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardOf, isPlayable, squares, quarterTurns, toView, fromView, squareName, parseSquare, pdnNumber, pdnSquare, edgeLabels } from '../js/board/geometry.js';

test('three boards have the right squares', () => {
  assert.equal(squares(boardOf('chess')).length, 64);
  assert.equal(squares(boardOf('draughts/english')).length, 32);
  assert.equal(squares(boardOf('draughts/russian')).length, 32);
  assert.equal(squares(boardOf('draughts/international')).length, 50);
  assert.equal(squares(boardOf('chess4')).length, 160);
  const c4 = boardOf('chess4');
  assert.equal(isPlayable(c4, 0, 0), false);
  assert.equal(isPlayable(c4, 2, 2), false);
  assert.equal(isPlayable(c4, 3, 0), true);
  assert.equal(isPlayable(c4, 0, 3), true);
  assert.equal(isPlayable(c4, 13, 13), false);
  assert.equal(isPlayable(c4, 10, 13), true);
  assert.equal(isPlayable(c4, 11, 13), false);
  assert.equal(isPlayable(boardOf('draughts/english'), 0, 0), true, 'a1 is dark');
  assert.equal(isPlayable(boardOf('draughts/english'), 1, 0), false);
});

test('seats turn the board: chess, draughts, four-player', () => {
  assert.equal(quarterTurns('chess', 0), 0);
  assert.equal(quarterTurns('chess', 1), 2);
  assert.equal(quarterTurns('chess', null), 0);
  // English and Pool: Black (seat 0) moves first and plays from the top of the diagram.
  assert.equal(quarterTurns('draughts/english', 0), 2);
  assert.equal(quarterTurns('draughts/english', 1), 0);
  assert.equal(quarterTurns('draughts/pool', 0), 2);
  assert.equal(quarterTurns('draughts/international', 0), 0);
  assert.equal(quarterTurns('draughts/russian', 1), 2);
  assert.deepEqual([0, 1, 2, 3].map((s) => quarterTurns('chess4', s)), [0, 1, 2, 3]);
});

test('chess: White sees a1 bottom-left, Black sees h8 bottom-left', () => {
  const b = boardOf('chess');
  assert.deepEqual(toView(b, 0, 0, 0), [0, 7]);
  assert.deepEqual(toView(b, 0, 7, 7), [7, 0]);
  assert.deepEqual(toView(b, 2, 7, 7), [0, 7]);
  assert.deepEqual(toView(b, 2, 0, 0), [7, 0]);
  assert.deepEqual(edgeLabels(b, 0).cols.join(''), 'abcdefgh');
  assert.deepEqual(edgeLabels(b, 2).cols.join(''), 'hgfedcba');
  assert.deepEqual(edgeLabels(b, 0).rows, ['8', '7', '6', '5', '4', '3', '2', '1']);
  assert.deepEqual(edgeLabels(b, 2).rows, ['1', '2', '3', '4', '5', '6', '7', '8']);
});

test('four-player: each army at the bottom of its own view', () => {
  const b = boardOf('chess4');
  // Red's king e1? Red's back rank is rank 0 (files d..k); Blue's is file a (0); Yellow's rank 13; Green's file n (13).
  const bottomRow = 13;
  assert.equal(toView(b, 0, 7, 0)[1], bottomRow, 'red back rank at the bottom for Red');
  assert.equal(toView(b, 1, 0, 7)[1], bottomRow, 'blue back rank (file a) at the bottom for Blue');
  assert.equal(toView(b, 2, 7, 13)[1], bottomRow, 'yellow back rank at the bottom for Yellow');
  assert.equal(toView(b, 3, 13, 7)[1], bottomRow, 'green back rank (file n) at the bottom for Green');
  // Blue sits on the left looking right: Yellow (top) is on Blue's left, Red (bottom) on Blue's right.
  assert.equal(toView(b, 1, 7, 13)[0], 0, 'Yellow is to the left for Blue');
  assert.equal(toView(b, 1, 7, 0)[0], 13, 'Red is to the right for Blue');
  // Green sits on the right: Red on its left, Yellow on its right.
  assert.equal(toView(b, 3, 7, 0)[0], 0);
  assert.equal(toView(b, 3, 7, 13)[0], 13);
  // Playing order is clockwise: for Red, Blue (next) is to the left.
  assert.equal(toView(b, 0, 0, 7)[0], 0);
});

test('toView and fromView are inverse for every square and turn', () => {
  for (const g of ['chess', 'draughts/international', 'chess4']) {
    const b = boardOf(g);
    for (let q = 0; q < 4; q++) {
      const seen = new Set();
      for (const [f, r] of squares(b)) {
        const [x, y] = toView(b, q, f, r);
        assert.ok(x >= 0 && y >= 0 && x < b.size && y < b.size);
        assert.deepEqual(fromView(b, q, x, y), [f, r]);
        seen.add(x + ',' + y);
      }
      assert.equal(seen.size, squares(b).length);
    }
  }
});

test('square names', () => {
  const b = boardOf('chess');
  assert.equal(squareName(4, 3), 'e4');
  assert.deepEqual(parseSquare(b, 'e4'), [4, 3]);
  assert.equal(parseSquare(b, 'i1'), null);
  const c4 = boardOf('chess4');
  assert.equal(squareName(13, 13), 'n14');
  assert.deepEqual(parseSquare(c4, 'k14'), [10, 13]);
  assert.equal(parseSquare(c4, 'a1'), null, 'a corner square does not exist');
});

test('draughts numbering on 8x8: 1-4 = b8 d8 f8 h8, 29 = a1, 32 = g1', () => {
  const b = boardOf('draughts/english');
  assert.deepEqual([1, 2, 3, 4].map((n) => squareName(...pdnSquare(b, n))), ['b8', 'd8', 'f8', 'h8']);
  assert.deepEqual([5, 8].map((n) => squareName(...pdnSquare(b, n))), ['a7', 'g7']);
  assert.equal(squareName(...pdnSquare(b, 29)), 'a1');
  assert.equal(squareName(...pdnSquare(b, 32)), 'g1');
  for (let n = 1; n <= 32; n++) assert.equal(pdnNumber(b, ...pdnSquare(b, n)), n);
  assert.equal(pdnNumber(b, 1, 0), null);
  assert.equal(pdnSquare(b, 33), null);
});

test('draughts numbering on 10x10: 1-5 = b10..j10, 46 = a1, 50 = i1', () => {
  const b = boardOf('draughts/international');
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => squareName(...pdnSquare(b, n))), ['b10', 'd10', 'f10', 'h10', 'j10']);
  assert.equal(squareName(...pdnSquare(b, 6)), 'a9');
  assert.equal(squareName(...pdnSquare(b, 46)), 'a1');
  assert.equal(squareName(...pdnSquare(b, 50)), 'i1');
  for (let n = 1; n <= 50; n++) assert.equal(pdnNumber(b, ...pdnSquare(b, n)), n);
});

test('arrow keys step through existing squares as drawn, and stop at the edge', async () => {
  const { stepView } = await import('../js/board/geometry.js');
  const chess = boardOf('chess');
  assert.deepEqual(stepView(chess, 0, [4, 1], 0, -1), [4, 2], 'up from e2 is e3 for White');
  assert.deepEqual(stepView(chess, 2, [4, 1], 0, -1), [4, 0], 'up from e2 is e1 for Black (board turned)');
  assert.deepEqual(stepView(chess, 0, [0, 0], -1, 0), [0, 0], 'a1 is the left edge');
  const c4 = boardOf('chess4');
  assert.deepEqual(stepView(c4, 0, [3, 1], -1, 0), [3, 1], 'left of d2 is a missing corner: stay');
  assert.deepEqual(stepView(c4, 0, [2, 3], 0, 1), [2, 3], 'below c4 is a corner');
  assert.deepEqual(stepView(c4, 0, [10, 3], 0, 1), [10, 2], 'k4 down to k3');
  assert.deepEqual(stepView(c4, 1, [0, 3], 0, -1), [1, 3], 'Blue sees the a-file at the bottom: up from a4 is b4');
  const d = boardOf('draughts/english');
  assert.deepEqual(stepView(d, 0, [0, 0], 0, -1), [1, 1], 'a1 up goes to the next dark square, b2');
  assert.deepEqual(stepView(d, 0, [0, 0], 1, 0), [2, 0], 'a1 right goes to c1 (the light b1 is passed over)');
  assert.deepEqual(stepView(d, 0, [7, 7], 0, -1), [7, 7], 'h8 is the top edge');
});
