// Applying table events in order, gaps and duplicates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromState, applyEvent, isMyTurn, plyOf, wireSquares, lastByArmy, moveRows, turnOrder } from '../js/table-model.js';

const state = () => ({
  id: 't1', code: null, spec: { game: 'chess', rules: { show_legal: true }, seats: [] }, version: 5,
  seats: [{ player: { id: 'a', name: 'Ana' }, cpu: null, away: false }, { player: { id: 'b', name: 'Bo' }, cpu: null, away: false }],
  game: { id: 'g1', start: 'S', position: 'P0', moves: [], turn: 0, legal: [{ wire: 'e2e4', from: [4, 1], to: [4, 3] }],
    clocks: { remaining_ms: [1000, 1000], running: 0, move_left_ms: null }, points: [], eliminated: [], check: [], outcome: null, draw_offer: null },
  spectators: 0, rematch: [], you: 0,
});

const moved = { e: 'moved', ply: 1, seat: 0, wire: 'e2e4', display: 'e4', position: 'P1', turn: 1, legal: [],
  clocks: { remaining_ms: [900, 1000], running: 1, move_left_ms: null }, points: [], eliminated: [], check: [] };

test('a move is applied with its last-move squares, a duplicate ignored, a gap reported', () => {
  const m0 = fromState(state(), 100);
  assert.equal(isMyTurn(m0), true);
  const r = applyEvent(m0, 6, moved, 200);
  assert.equal(r.status, 'applied');
  assert.equal(r.model.version, 6);
  assert.equal(plyOf(r.model), 1);
  assert.deepEqual(r.model.game.last.from, [4, 1]);
  assert.equal(r.model.game.position, 'P1');
  assert.equal(r.model.game.clocksAt, 200);
  assert.equal(isMyTurn(r.model), false);
  assert.equal(m0.game.moves.length, 0, 'the old model is unchanged');
  assert.equal(applyEvent(r.model, 6, moved, 300).status, 'duplicate');
  assert.equal(applyEvent(r.model, 8, { e: 'spectators', count: 2 }, 300).status, 'gap');
});

test('seat, draw, rematch, spectators, chat, ended', () => {
  let m = fromState(state(), 0);
  const step = (ev) => { m = applyEvent(m, m.version + 1, ev, 0).model; };
  step({ e: 'seat', seat: 1, info: { player: { id: 'b', name: 'Bo' }, cpu: null, away: true } });
  assert.equal(m.seats[1].away, true);
  step({ e: 'draw_offered', seat: 1 });
  assert.equal(m.game.draw_offer, 1);
  step({ e: 'draw_declined', seat: 0 });
  assert.equal(m.game.draw_offer, null);
  step({ e: 'spectators', count: 3 });
  assert.equal(m.spectators, 3);
  step({ e: 'chat', from: { id: 'b', name: 'Bo' }, text: '<b>hi</b>', at_ms: 1 });
  assert.equal(m.chat[0].text, '<b>hi</b>');
  step({ e: 'ended', outcome: { result: 'decided', places: [1, 2], winner: 0, reason: 'resignation', score: '1-0' }, clocks: null, points: [], eliminated: [], ratings: [] });
  assert.equal(m.game.outcome.reason, 'resignation');
  assert.deepEqual(m.game.legal, []);
  step({ e: 'rematch', seats: [0] });
  assert.deepEqual(m.rematch, [0]);
  const full = fromState({ ...state(), version: 20 }, 0, m);
  assert.equal(full.chat.length, 1, 'chat survives a full resync');
});

test('last move squares from a wire after a full state', () => {
  assert.deepEqual(wireSquares('chess', 'e7e8q'), { from: [4, 6], to: [4, 7], path: [[4, 7]] });
  assert.deepEqual(wireSquares('chess4', 'h2-h4').to, [7, 3]);
  assert.deepEqual(wireSquares('chess4', 'k13k11').from, [10, 12]);
  assert.deepEqual(wireSquares('draughts/english', '22x15').to, [4, 4]);
  assert.equal(wireSquares('chess', 'zz'), null);
});

import { firstSeat, colourOf, byColour } from '../js/table-model.js';

test('after a rotated rematch the first mover plays the first colour (four-player: each seat keeps its army)', () => {
  const m = fromState({ ...state(), you: 1 }, 0);
  assert.equal(colourOf(m, 1), 1, 'first game: seat 1 is Black');
  const rotated = { ...m, game: { ...m.game, turn: 1, moves: [] } };
  assert.equal(firstSeat(rotated.game), 1);
  assert.equal(colourOf(rotated, 1), 0, 'rematch: seat 1 moves first, plays White');
  assert.equal(colourOf(rotated, 0), 1);
  // Four-player chess: a rotated game (Yellow's seat moved first) leaves every seat its own army.
  const four = { spec: { game: 'chess4' }, seats: [{}, {}, {}, {}], game: { moves: [{ seat: 2, wire: 'x', display: 'x' }] } };
  assert.deepEqual([0, 1, 2, 3].map((s) => colourOf(four, s)), [0, 1, 2, 3]);
  assert.deepEqual(byColour(four, [true, false, false, false]), [true, false, false, false]);
  assert.equal(colourOf(four, null), null);
});

test('a seat event sets or clears the viewer\'s own seat; the full state brings the chat', () => {
  let m = fromState({ ...state(), you: null, seats: [state().seats[0], { player: null, cpu: null, away: false }], game: null }, 0);
  const step = (ev, me) => { m = applyEvent(m, m.version + 1, ev, 0, me).model; };
  step({ e: 'seat', seat: 1, info: { player: { id: 'b', name: 'Bo' }, cpu: null, away: false } }, 'b');
  assert.equal(m.you, 1, 'sitting down: the server sends a seat event, not a new state');
  step({ e: 'seat', seat: 0, info: { player: { id: 'a', name: 'Ana' }, cpu: null, away: true } }, 'b');
  assert.equal(m.you, 1, 'someone else\'s seat changes nothing');
  step({ e: 'seat', seat: 1, info: { player: { id: 'b', name: 'Bo' }, cpu: 'medium', away: true } }, 'b');
  assert.equal(m.you, 1, 'a CPU playing for me while I am away: still my seat');
  step({ e: 'seat', seat: 1, info: { player: null, cpu: null, away: false } }, 'b');
  assert.equal(m.you, null, 'standing up');
  const line = { from: { id: 'a', name: 'Ana' }, text: 'hi', at_ms: 5 };
  assert.deepEqual(fromState({ ...state(), chat: [line] }, 0, null).chat, [line]);
});

test('a full state merges its chat with the lines already received', () => {
  const ana = { from: { id: 'a', name: 'Ana' }, text: 'hi', at_ms: 5 };
  const bo = { from: { id: 'b', name: 'Bo' }, text: 'hello', at_ms: 7 };
  const late = { from: { id: 'b', name: 'Bo' }, text: 'still here', at_ms: 9 };
  const before = fromState({ ...state(), chat: [ana, bo] }, 0, null);
  // Bo is muted now: the server's state leaves his lines out, the page keeps (and hides) the ones it had.
  const after = fromState({ ...state(), chat: [ana, late] }, 0, before);
  assert.deepEqual(after.chat, [ana, bo, late]);
  assert.deepEqual(fromState({ ...state(), id: 't2', chat: [late] }, 0, before).chat, [late], 'another table: its own chat only');
});

const four = (moves, eliminated = [false, false, false, false]) => ({
  spec: { game: 'chess4' }, seats: [{}, {}, {}, {}], you: 0,
  game: { moves: moves.map(([seat, wire, display]) => ({ seat, wire, display: display || wire })), eliminated, turn: 0 },
});

test('four-player: each army still in keeps its latest move marked, the newest flagged', () => {
  const m = four([[0, 'h2-h3'], [1, 'b7-c7'], [2, 'g13-g12'], [3, 'm8-l8'], [0, 'e2-e4']]);
  const marks = lastByArmy(m);
  assert.deepEqual(marks.map((x) => [x.colour, x.from, x.to, x.newest]), [
    [0, [4, 1], [4, 3], true], [1, [1, 6], [2, 6], false], [2, [6, 12], [6, 11], false], [3, [12, 7], [11, 7], false]]);
  const out = four([[0, 'h2-h3'], [1, 'b7-c7'], [2, 'g13-g12']], [false, true, false, false]);
  assert.deepEqual(lastByArmy(out).map((x) => x.colour), [0, 2], 'an army that is out has no mark');
});

test('four-player move list: one column per colour, rows by round, aligned after an elimination', () => {
  // Blue (1) goes out after round 2: rounds 3 and 4 have Red, Yellow, Green with Blue's cell empty.
  const seats = [0, 1, 2, 3, 0, 1, 2, 3, 0, 2, 3, 0, 2];
  const m = four(seats.map((s, i) => [s, 'a' + i, i === 5 ? 'Qn7xh13+' : 'm' + i]), [false, true, false, false]);
  const rows = moveRows(m);
  assert.equal(rows.length, 4);
  assert.deepEqual(rows.map((r) => r.cells.map((c) => (c ? c.ply : null))), [
    [1, 2, 3, 4], [5, 6, 7, 8], [9, null, 10, 11], [12, null, 13, null]]);
  assert.equal(rows[1].cells[1].display, 'Qn7xh13+');
  // A rotated game (Yellow, seat 3, moved first): each seat keeps its army; rounds run Yellow, Green, Red, Blue.
  const r = four([[2, 'x'], [3, 'y'], [0, 'z'], [1, 'w'], [2, 'v']]);
  assert.deepEqual(turnOrder(r), [2, 3, 0, 1]);
  assert.deepEqual(moveRows(r).map((row) => row.cells.map((c) => c && c.ply)), [[3, 4, 1, 2], [null, null, 5, null]]);
  assert.equal(colourOf(r, 0), 0, 'seat 1 is Red whoever moved first');
});

test('a takeback replaces the game; offered against computers or asked of one other person, after one\'s own move', async () => {
  const { canTakeBack } = await import('../js/table-model.js');
  const cpu = { ...state(), seats: [state().seats[0], { player: null, cpu: 'easy', away: false }] };
  let m = fromState(cpu, 0);
  assert.equal(canTakeBack(m), false, 'nothing to take back yet');
  m = applyEvent(m, 6, moved, 0).model;
  assert.equal(canTakeBack(m), true);
  assert.equal(canTakeBack({ ...m, spec: { ...m.spec, rated: true } }), false);
  const people = fromState({ ...state(), game: { ...state().game, moves: [{ seat: 0, wire: 'e2e4', display: 'e4' }] } }, 0);
  assert.equal(canTakeBack(people), true, 'two people: it can be asked for');
  const asked = applyEvent(people, 6, { e: 'takeback_offered', seat: 0 }, 0).model;
  assert.equal(asked.game.takeback_offer, 0);
  assert.equal(canTakeBack(asked), false, 'not twice');
  assert.equal(applyEvent(asked, 7, { e: 'takeback_declined', seat: 1 }, 0).model.game.takeback_offer, null);
  const back = applyEvent(m, 7, { e: 'took_back', game: { ...state().game, moves: [] } }, 5).model;
  assert.equal(back.game.moves.length, 0);
  assert.equal(back.game.clocksAt, 5);
  assert.equal(back.game.last, null);
});
