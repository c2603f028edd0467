// The bundle: what a first visit downloads stays small once compressed, assets referenced the way the server serves
// them, imports relative, no URL outside our own server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { brotliCompressSync } from 'node:zlib';

const WEB = new URL('../', import.meta.url).pathname;

function files(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = dir + e.name;
    if (e.isDirectory()) { if (e.name !== 'test') files(p + '/', out); } else out.push(p);
  }
  return out;
}

// A first visit loads the app, the page's own module and every module they import statically (other pages and
// languages come later through import()), the style sheet, the piece sprite and one language file: the server sends
// them brotli-compressed, the modules joined into chunks without their comment lines (docs/web.md), which is
// smaller than this count of the files one by one. The page, the socket and the board's position come on top; the
// whole first visit must stay under 90 KB (the e2e first-load test measures it in Chromium).
const PAGES = ['lobby', 'table', 'history', 'rules', 'analysis'];

/** The modules `entry` loads before it runs: itself and its static imports, followed through. */
function closure(entry, seen = new Set()) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const src = readFileSync(entry, 'utf8');
  for (const m of src.matchAll(/^\s*import\s[^'"()]*?from\s*['"](\.[^'"]+)['"]/gm)) {
    closure(new URL(m[1], 'file://' + entry).pathname, seen);
  }
  return seen;
}

test('a first visit of every page downloads under 64 KB of compressed JS, CSS and SVG in every language', () => {
  const langs = ['en', 'bn', 'mr'];
  const size = (p) => brotliCompressSync(readFileSync(p)).length;
  for (const page of PAGES) {
    const modules = closure(`${WEB}js/pages/${page}.js`, closure(`${WEB}js/app.js`));
    const shared = [...modules].filter((p) => !langs.some((l) => p.endsWith(`/i18n/${l}.js`)));
    shared.push(`${WEB}css/app.css`, `${WEB}img/pieces.svg`);
    const base = shared.reduce((n, p) => n + size(p), 0);
    for (const l of langs) {
      const total = base + size(`${WEB}js/i18n/${l}.js`);
      console.log(`first visit of ${page} in ${l}: ${(total / 1024).toFixed(1)} KB compressed in ${shared.length + 1} files`);
      assert.ok(total < 64 * 1024, `${page} in ${l}: ${total} bytes`);
    }
  }
});

test('every module is reached from the app or a page', () => {
  const reached = new Set();
  for (const page of PAGES) closure(`${WEB}js/pages/${page}.js`, reached);
  closure(`${WEB}js/app.js`, reached);
  const modules = files(WEB + 'js/').filter((p) => p.endsWith('.js') && !p.includes('/i18n/'));
  for (const m of modules) assert.ok(reached.has(m), `${m} is not imported by the app or a page (a page missing from PAGES?)`);
});

test('index.html loads hashed assets; JS and CSS use relative URLs only; nothing from elsewhere', () => {
  const html = readFileSync(WEB + 'index.html', 'utf8');
  assert.match(html, /href="\/a\/__ASSETS__\/css\/app\.css"/);
  assert.match(html, /src="\/a\/__ASSETS__\/js\/app\.js"/);
  assert.doesNotMatch(html, /https?:\/\//);
  for (const p of files(WEB).filter((f) => f.endsWith('.js') || f.endsWith('.css'))) {
    const src = readFileSync(p, 'utf8');
    for (const m of src.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)) assert.ok(m[1].startsWith('./') || m[1].startsWith('../'), `${p}: ${m[1]}`);
    assert.doesNotMatch(src, /https?:\/\/(?!www\.w3\.org)/, p);
    assert.doesNotMatch(src, /\.innerHTML\s*=/, `${p} must not set innerHTML`);
  }
});

test('the sprite has every piece symbol and only plain SVG shapes', () => {
  const svg = readFileSync(WEB + 'img/pieces.svg', 'utf8');
  const ids = [...svg.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]);
  const want = [];
  for (const c of ['w', 'b']) for (const r of 'KQRBNP') want.push(c + r);
  for (const r of 'KQRBNP') want.push('army-' + r);
  want.push('man-white', 'man-black', 'king-white', 'king-black', 'mark-red', 'mark-blue', 'mark-yellow', 'mark-green');
  assert.deepEqual(ids.sort(), want.sort());
  const tags = new Set([...svg.matchAll(/<([a-zA-Z]+)[\s>]/g)].map((m) => m[1]));
  for (const tag of tags) assert.ok(['svg', 'symbol', 'path', 'circle', 'rect', 'polygon'].includes(tag), `tag ${tag}`);
  assert.doesNotMatch(svg, /<style|filter|<text|class=/);
});

test('every module parses (pages and the app too, which need a browser to run)', () => {
  for (const p of files(WEB).filter((f) => f.endsWith('.js'))) {
    const r = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: readFileSync(p) });
    assert.equal(r.status, 0, `${p}: ${r.stderr}`);
  }
});

test('docs/web.md and the served Content-Security-Policy give the hashes of the two inline scripts', () => {
  const html = readFileSync(WEB + 'index.html', 'utf8');
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 2, 'two inline scripts: the early socket and the fallback timer');
  assert.doesNotMatch(html, /\son[a-z]+="/, 'no inline event handlers');
  for (const script of scripts) {
    const hash = 'sha256-' + createHash('sha256').update(script).digest('base64');
    assert.ok(readFileSync(WEB + '../docs/web.md', 'utf8').includes(hash), hash);
    assert.ok(readFileSync(WEB + '../crates/server/src/headers.rs', 'utf8').includes(`'${hash}'`), hash);
  }
});

test('the early socket says hello in the protocol the client speaks', async () => {
  const { PROTOCOL } = await import(WEB + 'js/net/socket.js');
  const html = readFileSync(WEB + 'index.html', 'utf8');
  assert.ok(html.includes(`'{"t":"hello","protocol":${PROTOCOL}}'`), `the inline hello says protocol ${PROTOCOL}`);
});
