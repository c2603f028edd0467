// A new player's given name reads in the page's language: "Guest 33324" in English, "অতিথি ৩৩৩২৪" in Bengali,
// "पाहुणे ३३३२४" in Marathi, the same number for the same player (so it stays unique), in the name box, the seats
// and the lobby; saved unchanged it stays the name the server gave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAVE_SERVER, setup, person, createTable, model, sitDown, waitSeated } from '../lib/harness.js';

const skip = !HAVE_SERVER && 'no parlor binary (build it or set PARLOR_BIN)';
const BN = '০১২৩৪৫৬৭৮৯';
const MR = '०१२३४५६७८९';
const local = (n, digits) => String(n).replace(/\d/g, (d) => digits[Number(d)]);

test('guest names in the page\'s language and digits, unique, unchanged on the server', { skip, timeout: 120000 }, async () => {
  const env = await setup();
  try {
    const bn = await person(env, null, { lang: 'bn' });
    const mr = await person(env, null, { lang: 'mr' });
    const en = await person(env, null, { lang: 'en' });
    const id = await createTable(bn.page, { game: 'chess', seats: ['me', 'open'] });
    const server = (await model(bn.page)).seats[0].player.name;
    assert.match(server, /^Guest-[0-9A-F]{4}$/, 'the server keeps the given name');
    const n = parseInt(server.slice(6), 16);
    await mr.page.goto(`/table/${id}`);
    await sitDown(mr.page);
    await waitSeated(bn.page);
    await en.page.goto(`/table/${id}`);
    const seatNames = (page) => page.$$eval('#seats .pname', (els) => els.map((e) => e.textContent.replace(/[\u2068\u2069]/g, '').trim()));
    const mrServer = (await model(mr.page)).seats[1].player.name;
    const m = parseInt(mrServer.slice(6), 16);
    assert.notEqual(n, m);
    await en.page.waitForFunction(() => document.querySelectorAll('#seats .pname').length === 2);
    assert.deepEqual((await seatNames(en.page)).sort(), [`Guest ${n}`, `Guest ${m}`].sort());
    assert.ok((await seatNames(bn.page)).includes(`অতিথি ${local(n, BN)}`), (await seatNames(bn.page)).join());
    assert.ok((await seatNames(bn.page)).includes(`অতিথি ${local(m, BN)}`));
    assert.ok((await seatNames(mr.page)).includes(`पाहुणे ${local(n, MR)}`), (await seatNames(mr.page)).join());
    for (const p of [bn, mr, en]) assert.doesNotMatch((await p.page.textContent('body')), /Guest-/, 'no raw given name anywhere');

    // The name box shows it too; saving it unchanged keeps the server's name.
    await bn.page.goto('/');
    await bn.page.waitForSelector('#name-form');
    assert.equal(await bn.page.inputValue('#name'), `অতিথি ${local(n, BN)}`);
    await bn.page.click('[data-action="save-name"]');
    await bn.page.waitForSelector('.toast');
    await bn.page.goto(`/table/${id}`);
    await bn.page.waitForFunction(() => window.__parlorTable && window.__parlorTable());
    assert.equal((await model(bn.page)).seats[0].player.name, server);
    // Switching the page's language switches the box.
    await bn.page.goto('/');
    await bn.page.waitForSelector('#name-form');
    await bn.page.selectOption('#lang', 'mr');
    await bn.page.waitForFunction((v) => document.querySelector('#name').value === v, `पाहुणे ${local(n, MR)}`);
  } finally {
    await env.close();
  }
});
