#!/usr/bin/env node
// rapid-draughts (npm, MIT: an English draughts engine with an alpha-beta player) behind the second version of the
// Hub protocol, so that `parlor match --game draughts/english --b "hub:tools/engines/rapid-draughts-hub/hub.mjs"`
// can play it. Only what parlor match sends is spoken:
//
//   hub                                   -> id ..., param ..., wait
//   set-param name=depth value=N          a fixed depth (0, the default: deepen while the move time allows)
//   set-param name=variant value=english  any other variant is an error
//   init -> ready; new-game; ping -> pong; quit
//   pos pos=B<32 squares> moves="9-14 23x14 ..."   the start of English draughts and the moves since
//   level move-time=<s> | level time=<s> inc=<s>
//   go think                              -> info depth=... score=... then done move=<from-to or fromxtoxcaptured...>
//
// Squares are the standard 1 to 32 (Black, who moves first, starts on 1 to 12). rapid-draughts numbers the dark
// squares 0 to 31 in the same order, so a square is its position plus one.
import readline from 'node:readline';
import { DraughtsStatus } from 'rapid-draughts';
import { EnglishDraughts, EnglishDraughtsComputerFactory } from 'rapid-draughts/english';

const START = 'B' + 'b'.repeat(12) + 'e'.repeat(8) + 'w'.repeat(12);
let depth = 0;
let game = null;
let moveTime = 0.1;

const say = (line) => process.stdout.write(line + '\n');

// `name=value` and `name="quoted value"` pairs of a command line.
function args(line) {
  const out = {};
  for (const m of line.matchAll(/(\w[\w-]*)=("([^"]*)"|\S*)/g)) out[m[1]] = m[3] ?? m[2];
  return out;
}

const text = (m) =>
  m.captures.length === 0
    ? `${m.origin + 1}-${m.destination + 1}`
    : [m.origin, m.destination, ...m.captures].map((s) => s + 1).join('x');

// The legal move of `g` that a Hub move names: from, to and, when given, the captured squares in any order.
function find(g, hubMove) {
  const nums = hubMove.split(/[-x]/).map(Number);
  const [from, to, ...captured] = nums;
  const want = captured.slice().sort((a, b) => a - b).join(',');
  return g.moves.find(
    (m) =>
      m.origin + 1 === from &&
      m.destination + 1 === to &&
      (captured.length === 0 ||
        m.captures.map((s) => s + 1).sort((a, b) => a - b).join(',') === want),
  );
}

function position(line) {
  const a = args(line);
  if (a.pos !== START) return 'only the start of English draughts, and moves from it, can be set';
  const g = EnglishDraughts.setup();
  for (const hubMove of (a.moves ?? '').split(/\s+/).filter(Boolean)) {
    const m = find(g, hubMove);
    if (!m) return `illegal move ${hubMove}`;
    g.move(m);
  }
  game = g;
  return null;
}

async function think() {
  if (!game) {
    say('error no position');
    return;
  }
  // rapid-draughts counts its own draws (no progress), which need not agree with the match's rules: the match
  // decides when a game ends, so a position it calls drawn is searched with its counters at zero.
  let g = game;
  if (g.status !== DraughtsStatus.PLAYING) {
    const { player, board } = game.engine.data;
    g = EnglishDraughts.setup({ player, board, stats: { sinceCapture: 0, sinceNonKingAdvance: 0 } });
  }
  if (g.status !== DraughtsStatus.PLAYING || g.moves.length === 0) {
    say('error no move to play');
    return;
  }
  const started = performance.now();
  const budget = moveTime * 1000;
  let best = g.moves[0];
  if (g.moves.length > 1) {
    // Iterative deepening by whole searches: a depth starts only if the last one, three times over, still fits.
    let last = 0;
    for (let d = depth || 1; d <= (depth || 64); d++) {
      const before = performance.now();
      best = await EnglishDraughtsComputerFactory.alphaBeta({ maxDepth: d })(g);
      last = performance.now() - before;
      say(`info depth=${d} time=${((performance.now() - started) / 1000).toFixed(3)}`);
      if (!depth && performance.now() - started + 3 * last > budget) break;
    }
  }
  say(`done move=${text(best)}`);
}

const rl = readline.createInterface({ input: process.stdin });
const queue = [];
let busy = false;

async function handle(line) {
  const [command] = line.trim().split(/\s+/);
  const a = args(line);
  switch (command) {
    case 'hub':
      say('id name=rapid-draughts version=1.0.6');
      say('param name=depth value=0 type=int min=0 max=64');
      say('param name=variant value=english type=enum values="english"');
      say('wait');
      break;
    case 'set-param':
      if (a.name === 'depth') depth = Math.max(0, Number(a.value) || 0);
      else if (a.name === 'variant' && a.value !== 'english') say(`error variant ${a.value} is not played`);
      break;
    case 'init':
      say('ready');
      break;
    case 'new-game':
      game = null;
      break;
    case 'ping':
      say('pong');
      break;
    case 'pos': {
      const error = position(line);
      if (error) say(`error ${error}`);
      break;
    }
    case 'level':
      if (a['move-time']) moveTime = Number(a['move-time']);
      else if (a.time) moveTime = Number(a.time) / 30 + Number(a.inc ?? 0);
      break;
    case 'go':
      await think();
      break;
    case 'quit':
      process.exit(0);
      break;
    default:
      if (command) say(`error unknown command ${command}`);
  }
}

// Commands are handled one at a time, in order.
rl.on('line', (line) => {
  queue.push(line);
  if (busy) return;
  busy = true;
  (async () => {
    while (queue.length) await handle(queue.shift());
    busy = false;
  })();
});
rl.on('close', () => process.exit(0));
