// Every string exists in English, Bengali and Marathi, with the same placeholders; language choice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import en from '../js/i18n/en.js';
import bn from '../js/i18n/bn.js';
import mr from '../js/i18n/mr.js';
import { pickLanguage, fill, t, setLanguage, initLanguage, num, LANG_NAMES } from '../js/i18n/index.js';

const holes = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

for (const [name, dict] of [['bn', bn], ['mr', mr]]) {
  test(`${name} has exactly the English keys, non-empty, same placeholders`, () => {
    assert.deepEqual(Object.keys(dict).sort(), Object.keys(en).sort());
    for (const k of Object.keys(en)) {
      assert.ok(String(dict[k]).trim().length > 0, `${name} ${k} empty`);
      assert.equal(holes(dict[k]), holes(en[k]), `${name} ${k} placeholders`);
    }
  });
  test(`${name} prose is not left in English`, () => {
    // Keys whose text may stay Latin: notation examples and file format names.
    const latinOk = new Set(['table.move_input_hint_chess', 'table.move_input_hint_draughts', 'table.move_input_hint_chess4', 'table.download_pgn', 'table.download_pdn', 'table.download_pgn4', 'piece.army', 'square.piece', 'result.place', 'say.moved',
      'analysis.start_hint_chess', 'analysis.start_hint_draughts', 'analysis.start_hint_chess4', 'analysis.import']);
    for (const k of Object.keys(en)) {
      if (latinOk.has(k)) continue;
      const words = String(dict[k]).replace(/\{\w+\}/g, '').match(/[A-Za-z]{3,}/g) || [];
      assert.deepEqual(words, [], `${name} ${k} has Latin words`);
    }
  });
}

test('every key used in the code exists', () => {
  const used = new Set();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) { if (e.name !== 'i18n') walk(p); continue; }
      if (!p.endsWith('.js')) continue;
      for (const m of readFileSync(p, 'utf8').matchAll(/\bt\('([\w./-]+)'\s*[,)]/g)) used.add(m[1]);
    }
  };
  walk(new URL('../js', import.meta.url).pathname);
  assert.ok(used.size > 20, 'the pages use strings');
  for (const k of used) assert.ok(k in en, `missing key ${k}`);
});

test('language from the browser, switching, digits', async () => {
  assert.equal(pickLanguage(['bn-IN', 'en']), 'bn');
  assert.equal(pickLanguage(['fr', 'mr-IN']), 'mr');
  assert.equal(pickLanguage(['fr']), 'en');
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.equal(initLanguage(storage, ['mr']), 'mr');
  await setLanguage('bn', storage);
  assert.equal(initLanguage(storage, ['en']), 'bn', 'the choice is remembered');
  assert.equal(t('nav.rules'), 'নিয়ম');
  assert.equal(num('12:05'), '১২:০৫');
  assert.equal(t('seat.points', { n: num(7) }), 'পয়েন্ট: ৭');
  await setLanguage('en', storage);
  assert.equal(fill('{a} and {b}', { a: 1 }), '1 and {b}');
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('every error code the server sends has a message', () => {
  const src = readFileSync(new URL('../../crates/protocol/src/server.rs', import.meta.url), 'utf8');
  const body = src.match(/pub enum ErrorCode \{([\s\S]*?)\n\}/)[1];
  const codes = [...body.matchAll(/^\s{4}([A-Z]\w*),?$/gm)]
    .map((m) => m[1].replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase()));
  assert.ok(codes.length > 20 && codes.includes('too_many_tables'), codes.join(' '));
  for (const c of codes) assert.ok(`err.${c}` in en, `no message for error code ${c}`);
});

test('the language menu names each language as its own file does', () => {
  assert.deepEqual(LANG_NAMES, { en: en['lang.name'], bn: bn['lang.name'], mr: mr['lang.name'] });
});
