// Players' names are shown isolated from the text around them: in sentences (FSI ... PDI) and as elements (<bdi>).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { isolate, t, setLanguage } from '../js/i18n/index.js';

const FSI = '\u2068';
const PDI = '\u2069';

test('isolate wraps a name once in first-strong-isolate and pop-isolate', () => {
  assert.equal(isolate('Asha'), FSI + 'Asha' + PDI);
  assert.equal(isolate(isolate('Asha')), FSI + 'Asha' + PDI);
  assert.equal(isolate('\u202Eexe.gnp'), FSI + '\u202Eexe.gnp' + PDI);
});

test('every sentence with a {name} gets the name isolated, in every language', async () => {
  for (const lang of ['en', 'bn', 'mr']) {
    await setLanguage(lang);
    const name = 'مرحبا\u202E';
    for (const key of ['say.sat', 'chal.incoming', 'table.their_turn', 'history.of', 'table.block_confirm']) {
      const s = t(key, { name, game: 'g', time: 't' });
      assert.ok(s.includes(FSI + name + PDI), `${lang} ${key}: ${JSON.stringify(s)}`);
    }
  }
  await setLanguage('en');
});

test('no page puts a raw name into an element: names go through nameNode or isolate', () => {
  const offenders = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) { if (e.name !== 'i18n') walk(p); continue; }
      if (!p.endsWith('.js')) continue;
      readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
        // A name as a child of h(...), or returned as a seat's text: `..., p.name)` / `return s.player.name;`.
        if (/,\s*[\w.]+\.(name|from\.name)\s*\)/.test(line) || /return\s+[\w.]+\.player\.name\s*;/.test(line)) {
          offenders.push(`${p}:${i + 1}: ${line.trim()}`);
        }
      });
    }
  };
  walk(new URL('../js', import.meta.url).pathname);
  assert.deepEqual(offenders, []);
});
