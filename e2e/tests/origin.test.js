// Cross-site websocket hijacking: a page served from another port of 127.0.0.1 (same-site, so the browser sends
// the player's SameSite=Lax cookie along) tries to open /ws and rename the player; the server refuses it by its
// Origin. The real page, under the site's Content-Security-Policy, works and shows no CSP error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { HAVE_SERVER, setup, person } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';

/** A page that opens the victim site's websocket, says hello and renames the player; it reports in window.result. */
function evilPage(wsUrl) {
  return `<!doctype html><meta charset="utf-8"><title>evil</title><script>
  window.result = { opened: false, welcome: null, closed: false };
  const ws = new WebSocket(${JSON.stringify(wsUrl)});
  ws.onopen = () => { window.result.opened = true; ws.send(JSON.stringify({ t: 'hello', protocol: 1 })); };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.t === 'welcome') { window.result.welcome = m.you; ws.send(JSON.stringify({ t: 'set_name', name: 'Hijacked' })); }
  };
  ws.onclose = () => { window.result.closed = true; };
  </script>`;
}

test('a page of another origin cannot use the player\'s cookie on /ws', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  const evil = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(evilPage(env.base.replace('http://', 'ws://') + '/ws'));
  });
  await new Promise((r) => evil.listen(0, '127.0.0.1', r));
  const evilBase = `http://127.0.0.1:${evil.address().port}`;
  try {
    const victim = await person(env, 'Victim');
    // The real page runs under the policy: no console error (a CSP violation is one).
    assert.deepEqual(victim.errors, []);
    const csp = (await victim.page.request.get('/')).headers()['content-security-policy'];
    assert.match(csp, /frame-ancestors 'none'/);

    // The same browser (same cookies) visits the other page.
    const other = await victim.context.newPage();
    await other.goto(evilBase + '/');
    await other.waitForFunction(() => window.result && (window.result.closed || window.result.welcome), null, { timeout: 15000 });
    const result = await other.evaluate(() => window.result);
    assert.equal(result.welcome, null, `the other page was welcomed as ${JSON.stringify(result.welcome)}`);
    assert.equal(result.opened, false);

    // The player keeps the name, and the real page still talks to the server.
    await victim.page.reload();
    await victim.page.waitForSelector('html[data-started="1"]');
    await victim.page.waitForFunction(() => document.querySelector('#name') && document.querySelector('#name').value !== '');
    assert.equal(await victim.page.locator('#name').inputValue(), 'Victim');
    assert.deepEqual(victim.errors, []);
  } finally {
    evil.close();
    await env.close();
  }
});
