// The replay view reads the positions the server sends with each move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayPositions } from '../js/board/replay.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

test('each move shows the position the server sent with it', () => {
  const ps = replayPositions('chess', START, [{ wire: 'e2e4', position: AFTER_E4 }]);
  assert.equal(ps.length, 2);
  assert.equal(ps[1].get('4,3').sprite, 'wP');
  assert.equal(ps[1].has('4,1'), false);
});

test('a move without a position keeps the one before it: the browser works no move out', () => {
  const ps = replayPositions('chess', START, [{ wire: 'e2e4' }]);
  assert.equal(ps[1], ps[0]);
});

test('draughts and four-player positions are read the same way', () => {
  const [, d] = replayPositions('draughts/english', 'B:W21:B9', [{ wire: '9-13', position: 'W:W21:B13' }]);
  assert.equal(d.has('0,4'), true);
  // Four-player: a red pawn on h2, then on h4 (rows from rank 14 down to rank 1).
  const fen4 = (rank) => 'R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-' + Array.from({ length: 14 }, (_, i) => (14 - i === rank ? '7,rP,6' : '14')).join('/');
  const [before, c] = replayPositions('chess4', fen4(2), [{ wire: 'h2-h4', position: fen4(4) }]);
  assert.equal(before.get('7,1').colour, 'red');
  assert.equal(c.get('7,3').colour, 'red');
  assert.equal(c.has('7,1'), false);
});
