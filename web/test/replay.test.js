// Redrawing played moves for the replay view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayPositions, applyWire } from '../js/board/replay.js';
import { parsePosition } from '../js/board/position.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

test('chess: a move, castling moves the rook, en passant removes the pawn, promotion', () => {
  const ps = replayPositions('chess', START, [{ wire: 'e2e4' }, { wire: 'a7a6' }]);
  assert.equal(ps.length, 3);
  assert.equal(ps[1].get('4,3').sprite, 'wP');
  assert.equal(ps[1].has('4,1'), false);
  const castle = applyWire('chess', parsePosition('chess', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').pieces, 'e1g1');
  assert.equal(castle.get('6,0').role, 'K');
  assert.equal(castle.get('5,0').role, 'R');
  assert.equal(castle.has('7,0'), false);
  const long = applyWire('chess', parsePosition('chess', 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1').pieces, 'e8c8');
  assert.equal(long.get('3,7').sprite, 'bR');
  const ep = applyWire('chess', parsePosition('chess', '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1').pieces, 'e5d6');
  assert.equal(ep.has('3,4'), false);
  assert.equal(ep.get('3,5').sprite, 'wP');
  const promo = applyWire('chess', parsePosition('chess', '4k3/1P6/8/8/8/8/8/4K3 w - - 0 1').pieces, 'b7b8n');
  assert.equal(promo.get('1,7').sprite, 'wN');
});

test('draughts: multi-jump removes the jumped men, a man reaching the far row is crowned', () => {
  const ps = parsePosition('draughts/english', 'B:W18,26,K31:B14').pieces;
  const after = applyWire('draughts/english', ps, '14x23x30');
  assert.equal(after.size, 2);
  assert.equal(after.get('2,0').sprite, 'king-black', '30 = c1, crowned');
  const simple = applyWire('draughts/english', parsePosition('draughts/english', 'B:W21:B9').pieces, '9-13');
  assert.equal(simple.has('0,4'), true);
});

test('four-player: a pawn move and castling along a side', () => {
  const start = 'R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3';
  const [, after] = replayPositions('chess4', start, [{ wire: 'h2-h4' }]);
  assert.equal(after.get('7,3').colour, 'red');
  assert.equal(after.has('7,1'), false);
});
