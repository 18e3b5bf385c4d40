// End-to-end tests of grundy's web page: a real `grundy serve`, driven in headless Chromium
// (Debian's /usr/bin/chromium) by playwright-core. The tests assert on what the page shows
// and save a screenshot of each step to web-tests/screenshots/. The README's picture is
// web-tests/screenshots/readme.png; with UPDATE_SCREENSHOT=1 it is also written to
// docs/screenshot.png, which the README shows, with the gallery (docs/gallery.png) and a
// board in play (docs/board.png).
//
// GRUNDY_BIN names the binary (default: the newer of ../target/{release,debug}/grundy);
// CHROMIUM the browser (default /usr/bin/chromium).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const shots = join(here, 'screenshots');
mkdirSync(join(shots, 'families'), { recursive: true });
/** axe-core's script, injected into a page to check it (WCAG 2.1 A and AA, best practices). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function binary() {
  if (process.env.GRUNDY_BIN) return process.env.GRUNDY_BIN;
  // The newer of the release and debug builds.
  const built = ['release', 'debug']
    .map((profile) => join(root, 'target', profile, 'grundy'))
    .filter((path) => existsSync(path))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (built.length) return built[0];
  throw new Error('no grundy binary: run `cargo build --release -p grundy-cli` first, or set GRUNDY_BIN');
}

let server;
let browser;
let page;
let base;
/** Uncaught errors in the page's script. */
const pageErrors = [];

/** Starts `grundy serve --port 0` and reads the address it prints. */
function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(binary(), ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`grundy serve printed no address: ${out}`)), 20000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[0] });
      }
    });
    child.on('exit', (code) => reject(new Error(`grundy serve exited with ${code}: ${out}`)));
    child.on('error', reject);
  });
}

before(async () => {
  const started = await startServer();
  server = started.child;
  base = started.url;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    // Playwright gives each launch a fresh, empty profile directory of its own.
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (e) => pageErrors.push(e));
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
});

const shot = (name) => page.screenshot({ path: join(shots, name), fullPage: true });

/** Opens the page at its start (the gallery), then the Explore tab unless `gallery`. */
async function load({ gallery = false } = {}) {
  await page.goto(base);
  await page.waitForSelector('body[data-ready="true"]');
  if (!gallery) await page.click('#tab-explore');
}

/** The texts of every element matching `selector`. */
const texts = (selector) => page.locator(selector).allTextContents();

/**
 * A move's colour, as the page must draw it: Okabe and Ito's bluish green, yellow or
 * vermillion for a win, draw or loss, at most 80% mixed into white, at `strength`.
 */
const PALETTE = { win: [0, 158, 115], draw: [240, 228, 66], loss: [213, 94, 0] };
const fillOf = (outcome, strength) =>
  `rgb(${PALETTE[outcome].map((v) => Math.round(255 - (255 - v) * strength * 0.8)).join(', ')})`;

/**
 * The strength of move `m`'s colour: 1 for a win or loss in 1 (or a draw, or a score
 * game's best move), then paler towards 0.3 the farther the end: halfway 4 moves later.
 */
function strengthOf(m) {
  if (m.scores) return 0.3 + 0.7 / (1 + Number(m.worse_by || 0) / 4);
  if (m.outcome === 'draw' || m.remoteness === null || m.remoteness === undefined) return 1;
  return 0.3 + 0.7 / (1 + (Number(m.remoteness) - 1) / 4);
}

test('the page loads, with the catalog', async () => {
  await load();
  assert.equal(await page.title(), 'grundy — explore and play');
  assert.equal(await page.textContent('h1'), 'grundy');
  const examples = await texts('#catalog option');
  assert.ok(examples.includes('nim(3,4,5)'), `examples: ${examples}`);
  assert.ok(examples.includes('octal[0.77](20)'));
  assert.ok((await texts('#families li')).some((t) => t.startsWith('multiple')));
  await shot('01-loaded.png');
});

test('explore: solve nim(3,4,5)', async () => {
  await load();
  await page.fill('#spec', 'nim(3,4,5)');
  await page.click('#solve');
  await page.waitForSelector('#explore-result:not([hidden])');
  const summary = await page.textContent('#summary');
  assert.match(summary, /^nim\(3,4,5\): the player to move wins \(\d+ more moves under perfect play\)$/);
  const facts = await texts('#facts dt, #facts dd');
  assert.deepEqual(facts.slice(0, 2), ['outcome', 'win']);
  assert.equal(facts[facts.indexOf('Grundy value') + 1], '2');
  // The Grundy value of each component, and their xor.
  const rows = await page.locator('#components tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, [['nim(3)', '3'], ['nim(4)', '4'], ['nim(5)', '5'], ['xor', '2']]);
  // Every move, coloured by its value: 3+4+5 moves, one of them winning.
  assert.equal(await page.locator('#moves li').count(), 12);
  const winning = page.locator('#moves li.win');
  assert.equal(await winning.count(), 1);
  assert.equal(await winning.getAttribute('data-spec'), 'nim(1,4,5)');
  assert.match(await winning.locator('.value').textContent(), /^win in \d+$/);
  assert.equal(await page.locator('#moves li.loss').count(), 11);
  for (const value of await texts('#moves li.loss .value')) assert.match(value, /^lose in \d+$/);
  const colour = await winning.evaluate((e) => getComputedStyle(e).backgroundColor);
  const far = Number((await winning.locator('.value').textContent()).split(' ').at(-1));
  assert.equal(colour, fillOf('win', strengthOf({ outcome: 'win', remoteness: far })), 'a winning move is bluish green, shaded by its remoteness');
  // Each tile names its move and value for a screen reader.
  assert.match(await winning.locator('button.spec').getAttribute('aria-label'), /^take 2 from heap 1: win in \d+$/);
  // The small cases of Nim and the Grundy plot; a place for the rule.
  assert.equal(await page.textContent('.table-box h2'), 'nim: heap sizes 0..30');
  assert.match(await page.textContent('.p-positions'), /^Losing \(P-\) positions: 0$/);
  assert.equal(await page.locator('.table-box svg.plot rect.bar').count(), 30);
  assert.equal(await page.textContent('.rule'),
    'Rule: G(n) = n; a sum is lost iff the XOR of its heaps is 0 (proved: Bouton (1901))');
  await shot('02-nim-3-4-5.png');
});

test('explore: Fibonacci nim\'s table of small cases and its Grundy plot', async () => {
  await load();
  await page.selectOption('#catalog', 'multiple[2](30)');
  await page.waitForFunction(() => document.getElementById('summary').textContent.startsWith('multiple[2](30)'));
  // The menu keeps no stale choice: back to its title, the spec box says what is shown.
  assert.equal(await page.inputValue('#catalog'), '');
  assert.equal(await page.inputValue('#spec'), 'multiple[2](30)');
  assert.equal(await page.textContent('.table-box h2'), 'multiple[2]: heap sizes 0..30');
  // Seed 000: the losing starts are exactly the Fibonacci numbers.
  assert.equal(await page.textContent('.p-positions'), 'Losing (P-) positions: 0, 1, 2, 3, 5, 8, 13, 21');
  assert.equal(await page.locator('.table-box .grid td.loss').count(), 8);
  assert.equal(await page.locator('.table-box svg.plot circle.p-dot').count(), 8);
  // The rule the special method found, with its theorem.
  assert.match(await page.textContent('.rule'),
    /^Rule: losing starts: a\(i\) = a\(i-1\) \+ a\(i-2\) from 1, 2; .*\(proved: Whinihan \(1963\)/);
  await shot('03-fibonacci-table.png');
});

test('explore: a sum of Kayles heaps, for the README', async () => {
  await load();
  await page.fill('#spec', 'kayles(3,9)');
  await page.press('#spec', 'Enter');
  await page.waitForSelector('#explore-result:not([hidden])');
  assert.match(await page.textContent('#summary'), /^octal\[0\.77\]\(3,9\): the player to move wins/);
  const rows = await page.locator('#components tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, [['octal[0.77](3)', '3'], ['octal[0.77](9)', '4'], ['xor', '7']]);
  assert.ok(await page.locator('#moves li.win').count() >= 1);
  // The rule the special method proves for Kayles: what the README's picture shows.
  const rule = await page.textContent('.table-box .rule');
  assert.ok(rule.startsWith('Rule: G(n + 12) = G(n)'), rule);
  assert.match(rule, /\(proved: /);
  assert.doesNotMatch(rule, /none discovered/);
  const picture = join(shots, 'readme.png');
  await page.screenshot({ path: picture, fullPage: true });
  if (process.env.UPDATE_SCREENSHOT === '1') copyFileSync(picture, join(root, 'docs', 'screenshot.png'));
});

test('explore: a Domineering sum shows its value, each part\'s, and the thermograph', async () => {
  await load();
  await page.fill('#spec', 'domineering[2x3] + domineering[2x2]');
  await page.press('#spec', 'Enter');
  await page.waitForSelector('#value-box:not([hidden])');
  const facts = await page.locator('#value-facts dt, #value-facts dd').allTextContents();
  const pairs = Object.fromEntries(facts.flatMap((t, i) => (i % 2 ? [] : [[t, facts[i + 1]]])));
  // {2|-1/2} + ±1 = {3|1||1/2|-3/2}: mean 3/4, temperature 5/4.
  assert.equal(pairs.mean, '3/4');
  assert.equal(pairs['domineering[2x3](.../...)'], '{2|-1/2} (N)');
  assert.equal(pairs['domineering[2x2](../..)'], '±1 (N)');
  const img = page.locator('#thermograph-box img');
  if (await img.count()) {
    assert.match(await img.getAttribute('alt'), /^thermograph of .*: mean 3\/4, temperature /);
    assert.ok(await img.evaluate((i) => i.complete && i.naturalWidth > 0), 'the thermograph loads');
  }
  await shot('03b-domineering-value.png');
  // An impartial position has no value box (its Grundy value says it all).
  await page.fill('#spec', 'nim(3,4)');
  await page.press('#spec', 'Enter');
  await page.waitForFunction(() => document.getElementById('summary').textContent.startsWith('nim(3,4)'));
  assert.ok(await page.locator('#value-box').isHidden());
});

test('explore: integers past 2^53 are shown with every digit the library gives', async () => {
  const spec = 'nim(10^18,12345,7)';
  // The library's digits, read from the raw answer (JSON.parse would round them).
  const raw = await (await fetch(`${base}api/solve?spec=${encodeURIComponent(spec)}`)).text();
  const grundy = raw.match(/\],(?:"family":"nim",)?"grundy":(\d+),/)[1];
  assert.equal(grundy, '1000000000000012350');
  assert.notEqual(String(Number(grundy)), grundy, 'a double cannot hold this value');
  await load();
  await page.fill('#spec', spec);
  await page.click('#solve');
  await page.waitForSelector('#explore-result:not([hidden])');
  const facts = await texts('#facts dt, #facts dd');
  assert.equal(facts[facts.indexOf('Grundy value') + 1], grundy);
  const rows = await page.locator('#components tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, [
    ['nim(1000000000000000000)', '1000000000000000000'],
    ['nim(12345)', '12345'], ['nim(7)', '7'], ['xor', grundy]]);
  // The parser the page reads every answer with: big integers exact wherever they are,
  // strings and fractions untouched; and they go back to the server as the same digits.
  const parsed = await page.evaluate(() => {
    const v = parseJson('{"a":[-9007199254740993,9007199254740991,2.5,1e300],'
      + '"s":"18446744073709551617 \\" 99999999999999999999","n":{"b":18446744073709551617}}');
    return {
      text: [String(v.a[0]), String(v.a[1]), String(v.a[2]), String(v.a[3]), v.s, String(v.n.b)],
      types: [typeof v.a[0], typeof v.a[1], typeof v.s],
      back: toJson({ taken: [v.n.b, 3], spec: 'nim(1)' }),
    };
  });
  assert.deepEqual(parsed.text, ['-9007199254740993', '9007199254740991', '2.5', '1e+300',
    '18446744073709551617 " 99999999999999999999', '18446744073709551617']);
  assert.deepEqual(parsed.types, ['bigint', 'number', 'string']);
  assert.equal(parsed.back, '{"taken":[18446744073709551617,3],"spec":"nim(1)"}');
  // The script reads the API's answers through that parser only.
  const script = await (await fetch(`${base}app.js`)).text();
  assert.equal(script.match(/\.json\(\)/g), null, 'no response.json(), which rounds');
  assert.equal((script.match(/JSON\.parse\(/g) || []).length, 2, 'JSON.parse only inside parseJson');
});

test('explore: a sum\'s tiles name the part a move changes; a click anywhere explores; the address keeps the position', async () => {
  await load();
  const sum = 'nim(3) + octal[0.77](12) + multiple[2](10)';
  await page.fill('#spec', sum);
  await page.click('#solve');
  await page.waitForSelector('#explore-result:not([hidden])');
  const tiles = await page.locator('#moves li').evaluateAll((lis) => lis.map((li) => ({
    spec: li.dataset.spec,
    title: li.title,
    label: li.querySelector('.spec').textContent,
    // The label is shown whole, not cut by an ellipsis.
    whole: li.querySelector('.spec').scrollWidth <= li.querySelector('.spec').clientWidth,
  })));
  assert.equal(tiles.length, 24);
  const parts = sum.split(' + ');
  for (const t of tiles) {
    assert.equal(t.title, `explore ${t.spec}`, 'the whole position on hover');
    assert.ok(t.spec.split(' + ').includes(t.label), `${t.label} is a part of ${t.spec}`);
    assert.ok(!parts.includes(t.label), `${t.label} is the part that changed`);
    assert.ok(t.whole, `${t.label} is shown whole`);
  }
  assert.equal(new Set(tiles.map((t) => t.label)).size, tiles.length, 'no two tiles read alike');
  for (const label of ['nim(2)', 'octal[0.77](5,6)', 'multiple[2](7)']) {
    assert.ok(tiles.some((t) => t.label === label), label);
  }
  const hash = () => decodeURIComponent(new URL(page.url()).hash);
  assert.equal(hash(), `#explore=${sum}`);
  // A click on the tile's value, not its name, explores the position too.
  const next = 'nim(3) + octal[0.77](5,6) + multiple[2](10)';
  await page.locator(`#moves li[data-spec="${next}"] .value`).click();
  const shows = (spec) => page.waitForFunction((want) =>
    document.getElementById('summary').textContent.startsWith(`${want}:`)
    && document.getElementById('spec').value === want, spec);
  await shows(next);
  assert.equal(hash(), `#explore=${next}`);
  await page.locator('#moves li').nth(2).locator('.grundy').click();
  const third = await page.locator('#spec').inputValue();
  assert.notEqual(third, next);
  await shows(third);
  // Back and Forward step through the positions.
  await page.goBack();
  await shows(next);
  await page.goBack();
  await shows(sum);
  assert.equal(hash(), `#explore=${sum}`);
  await page.goForward();
  await shows(next);
  // The address is shareable: a fresh page opens at the position.
  const other = await page.context().newPage();
  await other.goto(page.url());
  await other.waitForFunction((want) =>
    document.getElementById('summary').textContent.startsWith(`${want}:`), next);
  await other.close();
});

test('explore: a bad spec is refused with its position, shown as text', async () => {
  await load();
  await page.fill('#spec', 'nim(<script>alert(1)</script>)');
  await page.click('#solve');
  await page.waitForSelector('#explore-error:not([hidden])');
  const error = await page.textContent('#explore-error');
  assert.match(error, /^bad spec at line 1, column 5: /);
  assert.equal(await page.locator('script').count(), 1, 'no script element was injected');
  await page.fill('#spec', 'octal[0.6](10^12)');
  await page.click('#solve');
  await page.waitForFunction(() => document.getElementById('explore-error').textContent.includes('too large'));
  await shot('04-bad-spec.png');
});

/** Starts a game of `spec` from the Play tab. */
async function startGame(spec, who = '#play-first') {
  await load();
  await page.click('#tab-play');
  await page.fill('#play-spec', spec);
  await page.click(who);
  await page.waitForSelector('#game:not([hidden])');
  await page.waitForFunction(() => !document.getElementById('play-first').disabled);
}

/** Clicks a move and waits for the engine's reply. */
async function play(choice) {
  const before = await page.locator('#log li').count();
  const spec = await choice.getAttribute('data-spec');
  await choice.click();
  await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n
    || !document.getElementById('play-error').hidden, before);
  assert.equal(await page.locator('#play-error').isHidden(), true, await page.textContent('#play-error'));
  return spec;
}

test('play: a full game of Fibonacci nim against the engine, and lose', async () => {
  // 8 is a Fibonacci number: the player to move loses, however they play.
  await startGame('multiple[2](8)');
  assert.equal(await page.textContent('#position'), 'multiple[2](8)');
  assert.equal(await page.textContent('#status'), 'Your move.');
  // Hint: no move is green here.
  await page.check('#hint');
  assert.equal(await page.locator('#choices button.win').count(), 0);
  assert.ok(await page.locator('#choices button.loss').count() > 0);
  assert.match(await page.textContent('#choices-note'), /no winning move/);
  await page.uncheck('#hint');

  // Undo takes back a move pair.
  await play(page.locator('#choices button').first());
  assert.equal(await page.locator('#log li').count(), 2);
  await page.click('#undo');
  assert.equal(await page.textContent('#position'), 'multiple[2](8)');
  assert.equal(await page.locator('#log li').count(), 0);

  let turns = 0;
  while ((await page.textContent('#status')) === 'Your move.') {
    await play(page.locator('#choices button').first());
    turns += 1;
    assert.ok(turns < 20, 'the game ends');
  }
  const status = await page.textContent('#status');
  assert.equal(status, 'you cannot move and lose: grundy wins.');
  // Every engine move says why, in one line.
  const reasons = await texts('#log li.log-grundy .why');
  assert.equal(reasons.length, turns);
  for (const why of reasons) assert.match(why, /you lose/);
  assert.match(reasons[0], /^ — leaves Grundy value 0: you lose, in \d+ more moves at most$/);
  assert.equal(reasons.at(-1), ' — leaves Grundy value 0: no move is left, you lose');
  assert.equal(await page.locator('#choices button').count(), 0);
  assert.equal(await page.locator('#typed-form').isVisible(), false);
  await shot('05-fibonacci-lost.png');
});

test('play: a won position, with hints, and win', async () => {
  // 10 is not a Fibonacci number: the player to move wins (take 2, Zeckendorf's smallest term).
  await startGame('multiple[2](10)');
  await page.check('#hint');
  let turns = 0;
  while ((await page.textContent('#status')) === 'Your move.') {
    const green = page.locator('#choices button.win');
    assert.ok(await green.count() > 0, 'a won position has a green move');
    assert.match(await green.first().locator('.value').textContent(), /^win in \d+$/);
    await play(green.first());
    turns += 1;
    assert.ok(turns < 20, 'the game ends');
  }
  assert.equal(await page.textContent('#status'), 'grundy cannot move and loses: you win.');
  assert.ok(await page.locator('#status.win').count() === 1);
  // The engine, losing, held out as long as it could, and said so.
  for (const why of await texts('#log li.log-grundy .why')) assert.match(why, /every move loses/);
  await shot('06-won.png');
});

test('play: Undo only with a move to take back; a failed start leaves the game going; Play it starts', async () => {
  await startGame('multiple[2](10)');
  assert.equal(await page.isDisabled('#undo'), true, 'nothing to undo at the start');
  await play(page.locator('#choices button').first());
  assert.equal(await page.isDisabled('#undo'), false);
  const position = await page.textContent('#position');
  const moves = await page.locator('#log li').count();
  // A start that fails says why above the game in progress, which is left as it was.
  await page.fill('#play-spec', 'nim(');
  await page.click('#play-first');
  await page.waitForSelector('#play-error:not([hidden])');
  const error = await page.textContent('#play-error');
  assert.match(error, /^Cannot start nim\(: bad spec at line 1, column 5: /);
  assert.ok(error.endsWith(`The game in progress below, at ${position}, goes on.`), error);
  assert.equal(await page.isVisible('#game'), true);
  assert.equal(await page.textContent('#position'), position);
  assert.equal(await page.locator('#log li').count(), moves);
  assert.equal(await page.isDisabled('#undo'), false);
  assert.ok(await page.locator('#choices button:not([disabled])').count() > 0, 'its moves can still be made');
  // … and it goes on: a move, then Undo back to the start, where Undo is off again.
  await play(page.locator('#choices button').first());
  assert.equal(await page.locator('#log li').count(), moves + 2);
  await page.click('#undo');
  await page.click('#undo');
  assert.equal(await page.textContent('#position'), 'multiple[2](10)');
  assert.equal(await page.isDisabled('#undo'), true);
  // The engine's first move cannot be undone either.
  await startGame('nim(3,4,5)', '#play-second');
  assert.equal(await page.isDisabled('#undo'), true);
  // "Play it" in Explore starts a game of the position explored.
  await load();
  await page.fill('#spec', 'multiple[2](8)');
  await page.click('#solve');
  await page.waitForSelector('#explore-result:not([hidden])');
  await page.click('#explore-play');
  await page.waitForSelector('#game:not([hidden])');
  assert.equal(await page.getAttribute('#tab-play', 'aria-selected'), 'true');
  assert.equal(await page.textContent('#position'), 'multiple[2](8)');
  assert.equal(await page.textContent('#status'), 'Your move.');
  assert.equal(await page.locator('#log li').count(), 0);
});

test('play: the engine moves first, and a typed move that is not a move is refused', async () => {
  await startGame('nim(3,4,5)', '#play-second');
  const first = await texts('#log li.log-grundy code');
  assert.deepEqual(first, ['take 2 from heap 1']);
  assert.equal(await page.textContent('#position'), 'nim(1,4,5)');
  await page.fill('#typed', 'nim(3,4,5)');
  await page.click('#typed-move');
  await page.waitForSelector('#play-error:not([hidden])');
  assert.equal(await page.textContent('#play-error'), '`nim(3,4,5)` is not one move from `nim(1,4,5)`');
});

test('play: a score game speaks of final scores, best and worse moves, in one account', async () => {
  await startGame('ends(4,7,2,9,5,2)');
  await page.check('#hint');
  // Both first moves still win on the final scores, but only one is best.
  const buttons = page.locator('#choices button');
  assert.equal(await buttons.count(), 2);
  assert.equal(await page.locator('#choices button.best').count(), 1);
  assert.match(await page.textContent('#choices-note'), /1 best move/);
  assert.doesNotMatch(await page.textContent('#game'), /holds out/);
  // Take the left 4 (worse by 6), then always the best: the game ends 15 to 14 for you.
  await play(page.locator('#choices button', { hasText: 'take the left 4' }));
  const mine = await page.textContent('#log li.log-you');
  assert.match(mine, /worse than the best by 6/);
  assert.match(mine, /grundy 14, you 15/);
  while (!(await page.locator('#status.over').count())) {
    await play(page.locator('#choices button.best').first());
  }
  assert.equal(await page.textContent('#status'), 'final scores: you 15, grundy 14: you win.');
  for (const line of await texts('#log li.log-grundy .why')) {
    assert.match(line, /grundy 14, you 15/, line);
  }
});


/** What the API says of `spec`: its report, as the page gets it. */
async function report(spec) {
  const answer = await fetch(`${base}api/solve?spec=${encodeURIComponent(spec)}`);
  assert.equal(answer.status, 200, spec);
  return answer.json();
}

/**
 * The board `drawing` shows (`#play-drawing`, `#explore-drawing`): every cell's label, fill
 * and remoteness, by "row,column".
 */
const boardCells = (drawing, p = page) => p.locator(`${drawing} g.cell`).evaluateAll((gs) => Object.fromEntries(gs.map((g) => [
  `${g.dataset.row},${g.dataset.column}`,
  {
    label: g.dataset.label,
    aria: g.getAttribute('aria-label'),
    fill: getComputedStyle(g.querySelector('.ground')).fill,
    remoteness: g.querySelector('text.remoteness') ? g.querySelector('text.remoteness').textContent : null,
    move: g.classList.contains('move'),
    last: g.classList.contains('last'),
  },
])));

/**
 * Checks the board `drawing` against the API's report of `spec`: the picture's cells, and
 * each move's cell filled by the move's value, its remoteness in the corner.
 */
async function boardShows(drawing, spec) {
  const r = await report(spec);
  assert.ok(r.picture, `${spec} has a picture`);
  const shown = await boardCells(drawing);
  r.picture.cells.forEach((label, i) => {
    const key = `${Math.floor(i / r.picture.columns)},${i % r.picture.columns}`;
    // Every cell is drawn (but the second cell of a Kalah store, which is one shape, and
    // the cells past a shorter circle's or row's tokens).
    if (shown[key]) assert.equal(shown[key].label, label, `cell ${key} of ${spec}`);
    else assert.ok(r.picture.look === 'pits' || (r.picture.look === 'rings' && label === ''), `cell ${key} of ${spec} is drawn`);
  });
  const moveCells = new Set();
  for (const m of r.moves) {
    const key = m.cell.join(',');
    moveCells.add(key);
    // One move a cell here: its colour is its value, shaded by its remoteness; its name
    // and value are its text for a screen reader.
    assert.equal(shown[key].fill, fillOf(m.outcome, strengthOf(m)), `${spec}: ${m.name} is a ${m.outcome}`);
    assert.equal(shown[key].remoteness, m.remoteness === null ? null : String(m.remoteness), `${spec}: ${m.name}`);
    assert.match(shown[key].aria, new RegExp(`^${m.name}: (win|lose) in \\d+$|^${m.name}: draw$`), shown[key].aria);
  }
  for (const [key, cell] of Object.entries(shown)) assert.equal(cell.move, moveCells.has(key), `cell ${key}`);
  return r;
}

/** The points of the value history, as drawn; `below`: how far under the draw line. */
const historyPoints = () => page.locator('#history circle.point').evaluateAll((cs) => {
  const mid = Number(document.querySelector('#history .draw-line').getAttribute('y1'));
  return cs.map((c) => ({
    move: Number(c.dataset.move), by: c.dataset.by, cls: c.getAttribute('class'), below: Number(c.getAttribute('cy')) - mid,
  }));
});

/**
 * Plays `start` by clicking cells of the board (with hints), `turns` times at most or to the
 * end: each time the colours are the API's, the cell clicked gets `piece`, the engine's
 * reply is outlined, and the value history has one point a move, coloured by who is winning.
 */
async function playByCells(start, piece, turns, pick) {
  await startGame(start);
  await page.check('#hint');
  for (let turn = 0; turn < turns; turn++) {
    const position = await page.textContent('#position');
    const r = await boardShows('#play-drawing', position);
    const m = pick(r.moves);
    const cell = page.locator(`#play-drawing g.cell[data-row="${m.cell[0]}"][data-column="${m.cell[1]}"]`);
    assert.equal(await play(cell), m.spec);
    // The move, then the engine's reply, each one point; the log says the same moves.
    const moves = await page.locator('#log li').count();
    const points = await historyPoints();
    assert.equal(points.length, moves, 'one point a move');
    assert.deepEqual(points.map((p) => p.move), points.map((_, i) => i + 1));
    assert.deepEqual(points.map((p) => p.by), (await page.locator('#log li').evaluateAll((lis) =>
      lis.map((li) => (li.classList.contains('log-you') ? 'you' : 'grundy')))));
    // Your move's point: green if it wins, yellow if it draws, red if it loses.
    const mine = points[points.length - (points.length % 2 === 0 ? 2 : 1)];
    assert.ok(mine.cls.includes({ win: 'win', draw: 'draw', loss: 'loss' }[m.outcome]), `${mine.cls} after a ${m.outcome}`);
    if ((await page.locator('#status.over').count()) === 0) {
      const now = await boardCells('#play-drawing');
      assert.equal(now[m.cell.join(',')].label, piece, 'your piece is where you clicked');
      const last = Object.values(now).filter((c) => c.last);
      assert.equal(last.length, 1, 'the engine\'s move is outlined');
      assert.notEqual(last[0].label, '', 'where the engine put its piece');
    } else {
      return;
    }
  }
}

test('play: tic-tac-toe by clicking cells, coloured by the API\'s values, with the value history', async () => {
  // The first drawing move each time: a draw at best, against perfect play.
  await playByCells('tictactoe', 'X', 5, (moves) => moves.find((m) => m.outcome !== 'loss'));
  assert.equal(await page.textContent('#status'), 'the game is over: a draw.');
  const points = await historyPoints();
  assert.equal(points.length, 9);
  assert.ok(points.every((p) => p.cls.includes('draw')), 'a draw all along');
  assert.equal(await page.locator('#play-drawing g.cell.move').count(), 0, 'no move is left to click');
  await shot('14-tictactoe-drawn.png');
  // Undo takes the history back with the moves.
  await page.click('#undo');
  assert.equal((await historyPoints()).length, 8, 'your last move, which ended the game, is taken back');
  assert.equal(await page.textContent('#status'), 'Your move.');
});

test('play: a lost tic-tac-toe charts grundy winning, nearer the end at each move', async () => {
  // O to move: a corner loses to X's fork. Take the losing cells, and lose.
  await playByCells('tictactoe(x../.o./..x)', 'O', 4, (moves) => moves.find((m) => m.outcome === 'loss') || moves[0]);
  assert.equal(await page.textContent('#status'), 'the game is over: grundy won.');
  const points = await historyPoints();
  assert.ok(points.length >= 3, `${points.length} moves`);
  for (const p of points) {
    assert.ok(p.cls.includes('loss'), `move ${p.move}: grundy is winning (${p.cls})`);
    assert.ok(p.below > 0, `move ${p.move} is drawn below the draw line`);
  }
  // Each move brings the end nearer: the points go down towards the edge.
  for (let i = 1; i < points.length; i++) assert.ok(points[i].below > points[i - 1].below, `move ${i + 1}`);
  await shot('15-tictactoe-lost.png');
});

test('play: connect four by clicking cells; discs land in their column', async () => {
  // Two discs in the first column (the engine answers each): four points.
  await playByCells('connect4[4x4]', 'X', 2, (moves) => moves[0]);
  const points = await historyPoints();
  assert.equal(points.length, 4);
  assert.equal(await page.locator('#history-box').isVisible(), true);
  await shot('16-connect4.png');
  if (process.env.UPDATE_SCREENSHOT === '1') await page.locator('#game').screenshot({ path: join(root, 'docs', 'board.png') });
});

test('explore: a board\'s cells are coloured by the API\'s values, and a click explores the move', async () => {
  await load();
  const spec = 'tictactoe(x../.o./..x)';
  await page.fill('#spec', spec);
  await page.click('#solve');
  await page.waitForSelector('#explore-result:not([hidden])');
  const r = await boardShows('#explore-drawing', spec);
  // A corner loses for O, an edge keeps the draw.
  const shown = await boardCells('#explore-drawing');
  assert.equal(shown['0,2'].fill, fillOf('loss', strengthOf(r.moves.find((m) => m.cell.join(',') === '0,2'))));
  assert.equal(shown['0,1'].fill, fillOf('draw', 1));
  const edge = r.moves.find((m) => m.cell.join(',') === '0,1');
  await page.locator('#explore-drawing g.cell[data-row="0"][data-column="1"]').click();
  await page.waitForFunction((want) => document.getElementById('summary').textContent.startsWith(`${want}:`), edge.spec);
  await boardShows('#explore-drawing', edge.spec);
  assert.equal((await boardCells('#explore-drawing'))['0,1'].label, 'O');
  await shot('18-explore-board.png');
  // A sum of pictures that are not grids: each part drawn as its figure.
  await page.fill('#spec', 'hackenbush(B) + hackenbush(R)');
  await page.click('#solve');
  await page.waitForFunction(() => document.getElementById('summary').textContent.startsWith('hackenbush(B) + hackenbush(R):'));
  assert.equal(await page.locator('#explore-board').isHidden(), false);
  assert.equal(await page.locator('#explore-board svg.edges-figure').count(), 2);
});

test('boards: any picture draws inside its drawing, numbers and labels as given, several moves at one cell', async () => {
  await load();
  // The page's drawing alone, on pictures of the shapes the library's families give.
  const drawn = await page.evaluate(() => {
    const box = document.createElement('div');
    box.id = 'test-board';
    document.querySelector('main').prepend(box);
    const draw = (picture, moves) => {
      box.replaceChildren(drawBoard(picture, moves, { coloured: true, onMove: () => {}, id: 'test-drawing' }));
      const d = document.getElementById('test-drawing');
      const view = d.viewBox.baseVal;
      return {
        cells: d.querySelectorAll('g.cell').length,
        hexes: d.querySelectorAll('g.cell polygon').length,
        labels: [...d.querySelectorAll('text.label')].map((t) => t.textContent),
        inside: [...d.querySelectorAll('.ground')].every((g) => {
          const b = g.getBBox();
          return b.x >= -0.01 && b.y >= -0.01 && b.x + b.width <= view.width + 0.01 && b.y + b.height <= view.height + 0.01;
        }),
        wins: d.querySelectorAll('g.cell.win').length,
        width: d.getBoundingClientRect().width,
      };
    };
    const hex = draw({ rows: 3, columns: 3, cells: ['X', '', '', '', 'O', '', '', '', ''], look: 'hexes' },
      [{ spec: 'a', name: 'a', outcome: 'win', remoteness: 3, cell: [0, 1] }]);
    // Kalah's pits hold numbers, its stores at both ends; an unknown look draws as marks.
    const kalah = draw({ rows: 2, columns: 5, cells: ['', '4', '4', '4', '', '', '0', '4', '4', ''], look: 'pits' }, []);
    const other = draw({ rows: 1, columns: 3, cells: ['7', 'A', ''], look: 'something new' }, []);
    // Two moves at one cell (a Quixo cube): the best colours it; a click lists both.
    const both = draw({ rows: 1, columns: 2, cells: ['X', ''], look: 'cubes' }, [
      { spec: 'left', name: 'push left', outcome: 'loss', remoteness: 2, cell: [0, 0] },
      { spec: 'right', name: 'push right', outcome: 'win', remoteness: 5, cell: [0, 0] }]);
    document.querySelector('#test-drawing g.cell').dispatchEvent(new MouseEvent('click'));
    const listed = [...document.querySelectorAll('#test-board .cell-moves button')].map((b) => [b.dataset.spec, b.getAttribute('aria-label')]);
    box.remove();
    return { hex, kalah, other, both, listed };
  });
  assert.deepEqual([drawn.hex.cells, drawn.hex.hexes, drawn.hex.wins], [9, 9, 1]);
  assert.ok(drawn.hex.width > 100, `drawn ${drawn.hex.width} px wide`);
  assert.ok(drawn.hex.inside && drawn.kalah.inside && drawn.other.inside, 'every cell inside its drawing');
  // 6 pits and 2 stores (one shape each for two cells).
  assert.equal(drawn.kalah.cells, 8);
  assert.deepEqual(drawn.kalah.labels.filter((l) => /^\d+$/.test(l)), ['4', '4', '4', '0', '4', '4']);
  assert.deepEqual(drawn.other.labels, ['7', 'A']);
  assert.equal(drawn.both.wins, 1, 'the better move colours the cell');
  assert.deepEqual(drawn.listed, [['left', 'push left: lose in 2'], ['right', 'push right: win in 5']]);
});

/** Explores `spec` on `p` and waits for the answer (its summary names the position as the library writes it). */
async function exploreSpec(spec, p = page) {
  const before = await p.textContent('#summary');
  await p.fill('#spec', spec);
  await p.click('#solve');
  await p.waitForFunction((old) => document.getElementById('explore-busy').hidden
    && document.getElementById('summary').textContent !== old, before);
}

/** Explores `spec` on `p` and waits for its board. */
async function exploreBoard(spec, p = page) {
  await exploreSpec(spec, p);
  await p.waitForSelector('#explore-drawing');
}

/** How many elements of the Explore board match each selector. */
const counts = (selectors, p = page) => p.evaluate((sel) => Object.fromEntries(Object.entries(sel).map(([k, v]) => [
  k, document.querySelectorAll(`#explore-drawing ${v}`).length]))
, selectors);

test('boards: every board family is drawn as its players know it', async () => {
  await load();
  // Connect four: a frame, a hole a cell, a disc of each player's colour a disc played.
  await exploreBoard('connect4[4x4](2323)');
  assert.deepEqual(await counts({ frame: 'rect.frame', holes: 'g.hole', x: 'circle.disc.x', o: 'circle.disc.o', moves: 'g.cell.move' }),
    { frame: 1, holes: 16, x: 2, o: 2, moves: 4 });
  assert.notEqual(await page.locator('#explore-drawing circle.disc.x').first().evaluate((c) => getComputedStyle(c).fill),
    await page.locator('#explore-drawing circle.disc.o').first().evaluate((c) => getComputedStyle(c).fill));
  await shot('22-board-connect4.png');
  // Hex: a rhombus of hexagons, X's two sides and O's two in their colours, stones.
  await exploreBoard('hex[3](x../.o./...)');
  const hex = await counts({ hexes: 'g.cell polygon', sideX: 'polyline.side.x', sideO: 'polyline.side.o', x: 'circle.stone.x', o: 'circle.stone.o' });
  assert.deepEqual(hex, { hexes: 9, sideX: 6, sideO: 6, x: 1, o: 1 });
  const sideColour = (cls) => page.locator(`#explore-drawing polyline.side.${cls}`).first().evaluate((l) => getComputedStyle(l).stroke);
  assert.notEqual(await sideColour('x'), await sideColour('o'));
  await shot('23-board-hex.png');
  // Dots and boxes: (r+1)(c+1) dots, a line a line drawn, a slot a line still to draw.
  await exploreBoard('dots[2x2](ha1,va1)');
  assert.deepEqual(await counts({ dots: 'g.dot', drawn: 'line.drawn', slots: 'g.slot', moves: 'g.slot.move', boxes: 'g.box' }),
    { dots: 9, drawn: 2, slots: 12, moves: 10, boxes: 4 });
  await shot('24-board-dots.png');
  // Kalah: 2 × 3 pits with their seeds, and two stores.
  await exploreBoard('kalah[3,3]');
  assert.deepEqual(await counts({ pits: 'g.pit', stores: 'g.store', moves: 'g.pit.move' }), { pits: 6, stores: 2, moves: 3 });
  assert.deepEqual(await page.locator('#explore-drawing g.pit text.label').allTextContents(), ['3', '3', '3', '3', '3', '3']);
  await shot('25-board-kalah.png');
  // Chomp: the bar, its poisoned square, the squares eaten.
  await exploreBoard('chomp[3x4](4,2,1)');
  assert.deepEqual(await counts({ squares: 'g.square', poison: 'g.square.poison', eaten: 'g.eaten', moves: 'g.square.move' }),
    { squares: 7, poison: 1, eaten: 5, moves: 6 });
  await shot('26-board-chomp.png');
  // Quixo: n × n cubes; the border ones that can be taken are the moves.
  await exploreBoard('quixo[3](x.o/.../...,x)');
  assert.deepEqual(await counts({ cubes: 'g.cube', border: 'g.cube.border', moves: 'g.cube.move', x: 'path.piece.x', o: 'circle.piece.o' }),
    { cubes: 9, border: 8, moves: 4, x: 1, o: 1 });
  await shot('27-board-quixo.png');
});

test('heaps: stacks of tokens, a move clicked at the lowest token it takes; a sum\'s parts side by side', async () => {
  await load();
  // Nim: a stack a heap on a floor of sizes; every token a move, coloured by its value.
  await exploreBoard('nim(3,4,5)');
  const r = await boardShows('#explore-drawing', 'nim(3,4,5)');
  assert.equal(r.picture.look, 'heaps');
  assert.deepEqual(await counts({ tokens: 'g.token', moves: 'g.token.move', floor: 'line.floor' }), { tokens: 12, moves: 12, floor: 1 });
  assert.deepEqual(await page.locator('#explore-drawing g.size text.label').allTextContents(), ['3', '4', '5']);
  await shot('31-heaps-nim.png');
  // The winning move, take 2 from heap 1: a click on heap 1's second token from the top.
  const win = r.moves.find((m) => m.outcome === 'win');
  assert.equal(win.name, 'take 2 from heap 1');
  assert.deepEqual(win.cell, [3, 0]);
  await page.locator('#explore-drawing g.cell[data-row="3"][data-column="0"]').click();
  await page.waitForFunction(() => document.getElementById('summary').textContent.startsWith('nim(1,4,5):'));
  assert.equal(await page.locator('#explore-drawing g.token').count(), 10);
  // A sum: each part drawn apart as its family draws it (a circle as a ring), its caption its spec.
  const sum = 'nim(2) + circular[0.77](5) + kayles(3)';
  await exploreSpec(sum);
  await page.waitForSelector('#explore-drawing-0');
  assert.deepEqual(await page.locator('#explore-drawing figcaption code').allTextContents(),
    ['nim(2)', 'circular[0.77](5)', 'octal[0.77](3)']);
  assert.equal(await page.locator('#explore-drawing-1 g.token.on-ring').count(), 5);
  assert.equal(await page.locator('#explore-drawing-2 g.token').count(), 3);
  // Kayles' top pin: taken alone or leaving two rows, both listed; one is explored.
  await page.locator('#explore-drawing-2 g.cell[data-row="0"][data-column="0"]').click();
  const listed = page.locator('#explore-drawing .cell-moves button');
  assert.equal(await listed.count(), 2);
  assert.deepEqual(await listed.evaluateAll((bs) => bs.map((b) => b.querySelector('.spec').textContent)),
    ['take 1 in part 3', 'take 1, leaving 1 and 1 in part 3']);
  await listed.nth(1).click();
  await page.waitForFunction(() => document.getElementById('summary').textContent
    .startsWith('nim(2) + circular[0.77](5) + octal[0.77](1,1):'));
  await shot('32-heaps-sum.png');
  // Play: a token clicked takes it and those above; the engine's take is marked.
  await startGame('nim(2,3)');
  const token = page.locator('#play-drawing g.cell[data-row="0"][data-column="1"]');
  assert.equal(await play(token), 'nim(2,2)');
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'take 1 from heap 2');
  assert.equal(await page.locator('#play-drawing g.cell.last').count(), 1, 'the engine\'s take is marked');
  // And a sum in play: the move lands in its part.
  await startGame('nim(1) + kayles(2)');
  await play(page.locator('#play-drawing-1 g.cell[data-row="0"][data-column="0"]'));
  assert.match(await page.locator('#log li.log-you code').textContent(), /in part 2$/);
});

test('play: the address holds the game: a link replays it to the same board and history; Back and Forward step through it', async () => {
  await startGame('tictactoe');
  const hash = () => new URL(page.url()).hash;
  assert.equal(hash(), '#play=tictactoe');
  const start = await page.textContent('#position');
  const state = async () => ({
    position: await page.textContent('#position'),
    log: await texts('#log li'),
    points: await page.locator('#history circle.point').count(),
  });
  const states = [await state()];
  for (let turn = 1; turn <= 2; turn++) {
    await play(page.locator('#play-drawing g.cell.move').first());
    states.push(await state());
  }
  assert.equal(states[2].points, 4);
  const link = page.url();
  assert.match(new URL(link).hash, /^#play=tictactoe&moves=[^,]+,[^,]+$/);
  // A fresh page opens the link at the same board, with the same log and value history.
  const other = await page.context().newPage();
  other.on('pageerror', (e) => pageErrors.push(e));
  await other.goto(link);
  await other.waitForSelector('body[data-ready="true"]');
  assert.equal(await other.getAttribute('#tab-play', 'aria-selected'), 'true');
  assert.equal(await other.textContent('#position'), states[2].position);
  assert.deepEqual(await other.locator('#log li').allTextContents(), states[2].log);
  assert.equal(await other.locator('#history circle.point').count(), 4);
  assert.equal(await other.locator('#play-drawing g.cell.last').count(), 1, 'grundy\'s last move marked');
  await other.close();
  // Back steps back a move pair at a time, to the start; Forward plays them again.
  const shows = async (want) => {
    await page.waitForFunction(([position, n]) => document.getElementById('position').textContent === position
      && document.querySelectorAll('#log li').length === n, [want.position, want.log.length]);
    assert.deepEqual(await state(), want);
  };
  await page.goBack();
  await shows(states[1]);
  await page.goBack();
  await shows(states[0]);
  assert.equal(states[0].position, start);
  assert.equal(hash(), '#play=tictactoe');
  await page.goForward();
  await shows(states[1]);
  await page.goForward();
  await shows(states[2]);
  // Undo is a step of the address too.
  await page.click('#undo');
  assert.equal((await state()).position, states[1].position);
  assert.match(hash(), /^#play=tictactoe&moves=[^,]+$/);
  // Grundy first, in a score game: the link says so, and keeps the points taken.
  await startGame('kalah[2,2]', '#play-second');
  assert.equal(hash(), '#play=kalah%5B2%2C2%5D&first=grundy');
  await play(page.locator('#play-drawing g.pit.move').first());
  const taken = await page.textContent('#score');
  const again = await page.context().newPage();
  again.on('pageerror', (e) => pageErrors.push(e));
  await again.goto(page.url());
  await again.waitForSelector('body[data-ready="true"]');
  assert.equal(await again.textContent('#position'), await page.textContent('#position'));
  assert.equal(await again.textContent('#score'), taken);
  assert.deepEqual(await again.locator('#log li').allTextContents(), await texts('#log li'));
  await again.close();
});

test('boards: the line that won is marked, in Explore and at the end of a game', async () => {
  await load();
  const wonCells = (drawing) => page.locator(`${drawing} g.cell.won`).evaluateAll((gs) => gs.map((g) =>
    [`${g.dataset.row},${g.dataset.column}`, g.dataset.label]));
  await exploreBoard('tictactoe(xxx/oo./...)');
  assert.deepEqual(await wonCells('#explore-drawing'), [['0,0', 'X'], ['0,1', 'X'], ['0,2', 'X']]);
  assert.match(await page.getAttribute('#explore-drawing', 'aria-label'), /the winning line marked$/);
  await exploreBoard('connect4[4x4](1212121)');
  assert.deepEqual(await wonCells('#explore-drawing'), [['0,0', 'X'], ['1,0', 'X'], ['2,0', 'X'], ['3,0', 'X']]);
  const ring = await page.locator('#explore-drawing g.cell.won circle.disc').first().evaluate((c) => getComputedStyle(c).stroke);
  assert.equal(ring, 'rgb(250, 204, 21)');
  await shot('33-won-connect4.png');
  // Hex: the chain that joined X's sides (top and bottom), with its branch.
  await exploreBoard('hex[3](oxx/ox./ox.)');
  assert.deepEqual(await wonCells('#explore-drawing'), [['0,1', 'X'], ['0,2', 'X'], ['1,1', 'X'], ['2,1', 'X']]);
  await shot('33-won-hex.png');
  // No line yet, none marked.
  await exploreBoard('connect4[4x4](121212)');
  assert.equal(await page.locator('#explore-drawing g.cell.won').count(), 0);
  // Tic-tac-toe played badly (you are O here): grundy's line of three X is marked when it wins.
  await startGame('tictactoe(x../.o./..x)');
  while ((await page.locator('#status.over').count()) === 0) {
    const r = await report(await page.textContent('#position'));
    const m = r.moves.find((x) => x.outcome === 'loss') || r.moves[0];
    await play(page.locator(`#play-drawing g.cell[data-row="${m.cell[0]}"][data-column="${m.cell[1]}"]`));
  }
  assert.match(await page.textContent('#status'), /grundy/);
  const line = await wonCells('#play-drawing');
  assert.equal(line.length, 3, `${line}`);
  assert.ok(line.every(([, label]) => label === 'X'), `${line}`);
  await shot('34-won-tictactoe.png');
});

test('play: a box goes to whoever closed it, and Kalah\'s stores hold what each side took', async () => {
  const taken = async () => {
    const m = /taken so far: you (\d+), grundy (\d+)/.exec(await page.textContent('#score'));
    return { you: Number(m[1]), grundy: Number(m[2]) };
  };
  // Dots and boxes on 1 × 2 boxes, to the end: each box in the colour of the side that
  // closed it, as many of each as the score says.
  await startGame('dots[1x2]');
  for (let turn = 0; turn < 10 && (await page.locator('#status.over').count()) === 0; turn++) {
    await play(page.locator('#play-drawing g.slot.move').first());
  }
  assert.equal(await page.locator('#status.over').count(), 1);
  const owners = await page.locator('#play-drawing g.box').evaluateAll((gs) => gs.map((g) => g.dataset.owner || ''));
  const total = await taken();
  assert.equal(owners.length, 2);
  assert.deepEqual([owners.filter((o) => o === 'you').length, owners.filter((o) => o === 'grundy').length], [total.you, total.grundy]);
  const fill = (who) => page.locator(`#play-drawing g.box.owner-${who} .ground`).first()
    .evaluate((g) => getComputedStyle(g).fill).catch(() => null);
  if (total.you) assert.equal(await fill('you'), 'rgb(86, 180, 233)');
  if (total.grundy) assert.equal(await fill('grundy'), 'rgb(204, 121, 167)');
  await shot('35-dots-owners.png');
  // Undo takes a box back with the move that closed it.
  await page.click('#undo');
  const left = await page.locator('#play-drawing g.box[data-owner]').count();
  assert.ok(left < 2, `${left} boxes still owned after Undo`);
  // Kalah: you are South; after your sowing and grundy's reply the stores say the score.
  await startGame('kalah[3,3]');
  const stores = () => page.locator('#play-drawing g.store').evaluateAll((gs) => Object.fromEntries(gs.map((g) => [
    g.dataset.column === '0' ? 'north' : 'south', g.querySelector('text.label') ? g.querySelector('text.label').textContent : ''])));
  assert.deepEqual(await stores(), { north: '', south: '' });
  await play(page.locator('#play-drawing g.pit[data-row="1"][data-column="2"]'));
  const now = await taken();
  assert.ok(now.you >= 1, 'your last seed went into your store');
  assert.deepEqual(await stores(), { north: String(now.grundy), south: String(now.you) });
  await shot('36-kalah-stores.png');
});

test('explore: a box closed by a move clicked goes to the player who closed it', async () => {
  await load();
  const start = 'dots[1x2](ha1,hb1,va1,vb1,first)';
  await exploreBoard(start);
  const r = await report(start);
  const m = r.moves.find((x) => x.name === 'h a2');
  await page.locator(`#explore-drawing g.cell[data-row="${m.cell[0]}"][data-column="${m.cell[1]}"]`).click();
  await page.waitForFunction((s) => document.getElementById('summary').textContent.startsWith(s), m.spec);
  const owned = () => page.locator('#explore-drawing g.box[data-owner]').evaluateAll((gs) => gs.map((g) => [
    `${g.dataset.row},${g.dataset.column}`, g.dataset.owner, getComputedStyle(g.querySelector('.ground')).fill]));
  assert.deepEqual(await owned(), [['1,1', 'first', 'rgb(86, 180, 233)']]);
  assert.match(await page.locator('#explore-drawing g.box[data-owner] title').textContent(), /: the first player's$/);
  await shot('40-explore-dots-owner.png');
  // Back at the start, then forward again: the owner is kept for the position reached.
  await page.goBack();
  await page.waitForFunction((s) => document.getElementById('summary').textContent.startsWith(s), start);
  assert.deepEqual(await owned(), []);
  await page.goForward();
  await page.waitForFunction((s) => document.getElementById('summary').textContent.startsWith(s), m.spec);
  assert.deepEqual(await owned(), [['1,1', 'first', 'rgb(86, 180, 233)']]);
  // A position typed afresh: its box is taken, by whom it does not say.
  await exploreBoard('dots[1x2](ha1,ha2,hb1,hb2,va1,vb1,second)');
  assert.deepEqual(await owned(), []);
  assert.equal(await page.locator('#explore-drawing g.box[data-label="#"]').count(), 1);
});

test('thinking: a long answer says so, with the seconds and the search\'s own progress', async () => {
  await load();
  // The tickets' progress: asked of the server while the page waits (its own fetches).
  const asked = [];
  page.on('response', async (r) => {
    if (r.url().includes('/api/progress?')) asked.push(await r.json().catch(() => null));
  });
  // A 9 × 10 bar of chocolate: seconds of exploring and labelling 92 378 positions.
  await page.fill('#spec', 'chomp[9x10]');
  await page.click('#solve');
  await page.waitForSelector('#explore-thinking:not([hidden])');
  await page.waitForFunction(() => /^grundy is thinking… \d+\.\d s — .+: [\d,]+$/.test(document.getElementById('explore-thinking').textContent),
    null, { timeout: 20000 });
  const line = await page.textContent('#explore-thinking');
  await shot('37-thinking.png');
  await page.waitForFunction(() => document.getElementById('summary').textContent.startsWith('chomp[9x10]'), null, { timeout: 30000 });
  assert.equal(await page.locator('#explore-thinking').isHidden(), true, 'gone with the answer');
  const working = asked.filter((p) => p && p.working);
  assert.ok(working.length >= 1, `progress asked: ${JSON.stringify(asked)}`);
  assert.ok(working.some((p) => p.stage && Number(p.done) > 0), `${line}; ${JSON.stringify(working)}`);
  // Once answered, a ticket is forgotten.
  const last = asked.filter(Boolean).at(-1);
  const after = await (await fetch(`${base}api/progress?ticket=${last.ticket}`)).json();
  assert.deepEqual(after, { ticket: last.ticket, working: false });
  // A quick answer says nothing.
  await exploreSpec('nim(3,4,5)');
  assert.equal(await page.locator('#explore-thinking').isHidden(), true);
});

test('every family of the catalog: its game opens on a board, its first move is played by clicking it, grundy replies', async () => {
  const catalog = await (await fetch(`${base}api/catalog`)).json();
  assert.deepEqual(catalog.gallery.map((g) => g.name), catalog.families.map((f) => f.name), 'one entry a family');
  for (const g of catalog.gallery) {
    const spec = g.spec;
    assert.ok(spec, `${g.name} has a spec to play`);
    // Every family is drawn by the library (a picture or a figure), not left to text: a
    // new family without a board fails here.
    assert.ok(g.picture || g.figure, `${g.name}: the library draws no board of ${spec}`);
    await startGame(spec);
    assert.equal(await page.locator('#play-error').isHidden(), true, `${spec}: ${await page.textContent('#play-error')}`);
    assert.equal(await page.locator('#play-board').isHidden(), false, `${spec}: a board is shown`);
    assert.ok(await page.locator('#play-board svg').count() >= 1, `${spec}: the board is SVG`);
    // The first move the board offers (a cell, a token, an edge, a score line, a vertex
    // or a triangle; a cube's first listed push), played by clicking the board.
    const onBoard = page.locator('#play-board svg [role="button"]');
    assert.ok(await onBoard.count() > 0, `${spec}: a move is clicked on the board`);
    let choice = onBoard.first();
    await choice.click();
    const listed = page.locator('#play-board .cell-moves:not([hidden]) button');
    if (await listed.count()) choice = listed.first();
    else {
      await page.waitForFunction(() => !document.getElementById('play-first').disabled);
      choice = null;
    }
    if (choice) await play(choice);
    await page.waitForFunction(() => !document.getElementById('play-first').disabled);
    assert.equal(await page.locator('#play-error').isHidden(), true, `${spec}: ${await page.textContent('#play-error')}`);
    const log = await page.locator('#log li').evaluateAll((lis) => lis.map((li) => li.className));
    assert.ok(log[0] && log[0].startsWith('log-you'), `${spec}: your move is logged (${log})`);
    const over = (await page.locator('#status.over').count()) > 0;
    const yourTurn = (await page.textContent('#status')) === 'Your move.';
    assert.ok(over || yourTurn, `${spec}: grundy replied or the game is over`);
    assert.equal(await page.locator('#history circle.point').count(), log.length, `${spec}: one point a move`);
  }
});

test('play: Quixo by arrows and by drag: a cube clicked shows an arrow at each end it can go back in at', async () => {
  await startGame('quixo[3]');
  await page.check('#hint');
  await page.locator('#play-drawing g.cell[data-row="0"][data-column="0"]').click();
  const arrows = await page.locator('#play-drawing g.arrow').evaluateAll((gs) => gs.map((g) => ({
    at: `${g.dataset.row},${g.dataset.column}`, glyph: g.querySelector('text').textContent, aria: g.getAttribute('aria-label'),
  })));
  // a1 pushed in at c1 (the row slides left) or at a3 (the column slides up).
  assert.deepEqual(arrows.map((a) => [a.at, a.glyph]).sort(), [['0,2', '←'], ['2,0', '↑']]);
  for (const a of arrows) assert.match(a.aria, /^a1 to (c1|a3): ((win|lose) in \d+|draw)$/);
  assert.ok(await page.evaluate(() => document.activeElement.matches('#play-drawing g.arrow')), 'the first arrow has the focus');
  await shot('38-quixo-arrows.png');
  await play(page.locator('#play-drawing g.arrow[data-row="0"][data-column="2"]'));
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'a1 to c1');
  // A drag from a cube to an end plays the push that ends there.
  await startGame('quixo[3]');
  const centre = async (r, c) => {
    const b = await page.locator(`#play-drawing g.cell[data-row="${r}"][data-column="${c}"] .ground`).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const [[x1, y1], [x2, y2]] = [await centre(0, 2), await centre(2, 2)];
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move(x2, y2, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'c1 to c3');
  // The keyboard: a cube with the focus, an arrow key slides the cubes that way.
  await startGame('quixo[3]');
  await page.locator('#play-drawing g.cell[data-row="0"][data-column="0"]').focus();
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'a1 to a3');
});

test('play: the keyboard alone plays a board: Tab to a cell, Enter moves there', async () => {
  await startGame('connect4[4x4]');
  let tabs = 0;
  while (!(await page.evaluate(() => document.activeElement.matches('#play-drawing g.cell.move')))) {
    await page.keyboard.press('Tab');
    tabs += 1;
    assert.ok(tabs < 40, 'a move cell is reached by Tab');
  }
  const spec = await page.evaluate(() => document.activeElement.dataset.spec);
  const name = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert.equal(name, 'column 1', 'the cell is named by its move');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#log li').length === 2);
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'column 1');
  assert.ok(spec.startsWith('connect4[4x4]'));
});

test('play: Chomp, Quixo and Kalah by clicking the board', async () => {
  // Chomp: the square clicked goes, with every square above and right of it.
  await startGame('chomp[3x4]');
  const square = page.locator('#play-drawing g.cell[data-row="0"][data-column="3"]');
  assert.equal(await play(square), 'chomp[3x4](4,4,3)');
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'take row 3 column 4');
  assert.equal((await boardCells('#play-drawing'))['0,3'].label, '');
  // Quixo: a cube has two or three moves; clicked, they are listed, and one is played.
  await startGame('quixo[3]');
  await page.check('#hint');
  await page.locator('#play-drawing g.cell[data-row="0"][data-column="0"]').click();
  const listed = page.locator('#play-board .cell-moves button');
  assert.equal(await listed.count(), 2, 'a corner cube pushed in at either end');
  assert.match(await listed.first().getAttribute('aria-label'), /^a1 to c1: (win|lose) in \d+$|^a1 to c1: draw$/);
  await play(listed.first());
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'a1 to c1');
  assert.equal(await page.locator('#play-drawing g.cell.last').count(), 1, 'the engine\'s move is marked');
  // Kalah: a pit clicked is sown.
  await startGame('kalah[3,3]');
  const pit = page.locator('#play-drawing g.pit[data-row="1"][data-column="1"]');
  const sown = await pit.getAttribute('data-spec');
  assert.equal(await play(pit), sown);
  assert.equal(await page.locator('#log li.log-you code').textContent(), 'pit 1');
  await shot('28-play-kalah.png');
});

test('boards: circles as rings, Toads and Frogs as a strip, Hackenbush as edges on the ground, Cutcake as pieces with score lines', async () => {
  await load();
  // A circle of 6 and a row of 3 of Dawson's Kayles (two adjacent tokens taken): a ring of
  // 6 tokens, a row of 3; the circle's move at the second token it takes clockwise from
  // the top, the row's at the first it takes.
  let spec = 'circular[0.07](6,row3)';
  await exploreBoard(spec);
  assert.deepEqual(await counts({ table: 'circle.table', ring: 'g.token.on-ring', row: 'g.token.in-row', moves: 'g.token.move' }),
    { table: 1, ring: 6, row: 3, moves: 2 });
  let r = await boardShows('#explore-drawing', spec);
  assert.equal(r.picture.look, 'rings');
  assert.deepEqual(r.moves.map((m) => [m.name, m.cell]), [['take 2 from the circle of 6, leaving a row of 4', [0, 1]], ['take 2', [1, 0]]]);
  // Kayles' circle: a move at each of the two tokens its takes can end at.
  spec = 'circular[0.77](5)';
  await exploreBoard(spec);
  r = await boardShows('#explore-drawing', spec);
  assert.deepEqual(r.moves.map((m) => m.cell), [[0, 0], [0, 1]]);
  await shot('48-board-circular.png');
  // Toads and Frogs: a cell a square, toads and frogs as pieces facing their way.
  await exploreBoard('toads(T.TF.F,right)');
  assert.deepEqual(await counts({ cells: 'g.strip-cell', toads: 'g.animal.toad', frogs: 'g.animal.frog', moves: 'g.strip-cell.move' }),
    { cells: 6, toads: 2, frogs: 2, moves: 2 });
  r = await boardShows('#explore-drawing', 'toads(T.TF.F,right)');
  assert.deepEqual(r.moves.map((m) => [m.name, m.cell[1]]), [['frog 4-2', 3], ['frog 6-5', 5]]);
  await shot('49-board-toads.png');
  // Hackenbush: an edge a stroke of its colour standing on the ground; Left's (blue and
  // green) are the moves, each named by its cut and value, filled by the value.
  const hb = 'hackenbush(0-1:G,1-2:B,1-2:R,0-2:G,2-3:B)';
  await exploreSpec(hb);
  await page.waitForSelector('#explore-drawing.edges-figure');
  assert.deepEqual(await counts({ earth: 'rect.earth', edges: 'g.hb-edge', blue: 'g.hb-edge.blue', red: 'g.hb-edge.red', green: 'g.hb-edge.green', moves: 'g.hb-edge.move' }),
    { earth: 1, edges: 5, blue: 2, red: 1, green: 2, moves: 4 });
  r = await report(hb);
  assert.equal(r.figure.kind, 'edges');
  const edges = await page.locator('#explore-drawing g.hb-edge.move').evaluateAll((gs) => gs.map((g) => ({
    edge: Number(g.dataset.edge), aria: g.getAttribute('aria-label'), tabindex: g.getAttribute('tabindex'),
    halo: g.querySelector('.halo') ? getComputedStyle(g.querySelector('.halo')).stroke : null,
  })));
  for (const m of r.moves) {
    const shown = edges.find((e) => e.edge === m.part);
    assert.ok(shown, `${m.name}: its edge is a button`);
    assert.ok(shown.aria.endsWith(`${m.name}: ${m.outcome === 'win' ? 'win' : m.outcome === 'loss' ? 'lose' : 'draw'}${m.outcome === 'draw' ? '' : ` in ${m.remoteness}`}`), shown.aria);
    assert.equal(shown.tabindex, '0');
    assert.equal(shown.halo, fillOf(m.outcome, strengthOf(m)), `${m.name} is a ${m.outcome}`);
  }
  await shot('50-board-hackenbush.png');
  // A click on an edge explores its cut.
  const cut = r.moves.find((m) => m.name === 'cut 2-3:B');
  await page.locator(`#explore-drawing g.hb-edge[data-edge="${cut.part}"]`).click();
  await page.waitForFunction((want) => document.getElementById('summary').textContent.startsWith(`${want}:`), cut.spec);
  // Cutcake: the pieces, their score lines; Right to move cuts along the horizontal ones,
  // either of a piece's symmetric lines and either of two equal pieces making one cut.
  const cake = 'cutcake(2x3,1x4,2x3,right)';
  await exploreSpec(cake);
  await page.waitForSelector('#explore-drawing.cake-figure');
  assert.deepEqual(await counts({ pieces: 'g.piece-of-cake', lines: 'g.score-line', down: 'g.score-line.down', across: 'g.score-line.across', moves: 'g.score-line.move' }),
    { pieces: 3, lines: 9, down: 7, across: 2, moves: 2 });
  assert.deepEqual(await counts({ moves: 'g.score-line.across.move' }), { moves: 2 });
  r = await report(cake);
  assert.deepEqual(r.moves.map((m) => [m.name, m.part, m.parts]), [['cut 2x3 into 1x3 + 1x3', 5, [5, 8]]]);
  await shot('51-board-cutcake.png');
  // A sum: each part drawn as it is alone, edges and cake too; a click on an edge in its
  // part explores the cut.
  await exploreSpec('hackenbush(B,R) + cutcake(1x3)');
  await page.waitForSelector('#explore-drawing-0.edges-figure');
  assert.equal(await page.locator('#explore-drawing-1.cake-figure g.score-line.move').count(), 2);
  await page.locator('#explore-drawing-0 g.hb-edge[data-edge="0"]').click();
  await page.waitForFunction(() => document.getElementById('summary').textContent
    .startsWith('hackenbush(R,right) + cutcake(1x3,right):'));
});

/** The names of the moves logged so far, yours and grundy's, in order. */
const logged = () => page.locator('#log li code').allTextContents();

test('play: circular games, Toads and Frogs, Hackenbush and Cutcake by clicking the board; grundy replies', async () => {
  // A round table of 12: the top token taken opens the circle; grundy's reply splits the
  // row, and the board is rows now.
  await startGame('circular[0.77](12)');
  assert.equal(await page.locator('#play-drawing g.token.on-ring').count(), 12);
  await play(page.locator('#play-drawing g.cell[data-row="0"][data-column="0"]'));
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  let log = await logged();
  assert.equal(log[0], 'take 1 from the circle of 12, leaving a row of 11');
  assert.equal(await page.locator('#play-drawing g.token.on-ring').count(), 0, 'the circle is open');
  assert.ok(await page.locator('#play-drawing g.token.in-row').count() > 0, 'its rows are drawn');
  // The tokens moved places (a ring opened, a row split): no token is marked as grundy's move.
  assert.equal(await page.locator('#play-drawing g.cell.last').count(), 0);
  assert.equal(await page.textContent('#status'), 'Your move.');
  await shot('52-play-circular.png');
  // Toads and Frogs: the toad on cell 2 steps right; a frog replies.
  await startGame('toads(TT..FF)');
  await play(page.locator('#play-drawing g.cell[data-row="0"][data-column="1"]'));
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  log = await logged();
  assert.equal(log[0], 'toad 2-3');
  assert.match(log[1], /^frog \d+-\d+$/);
  await shot('53-play-toads.png');
  // Hackenbush: Left cuts the blue edge 1-2, what stood on it falls; Right replies.
  await startGame('hackenbush(BBR,RG)');
  assert.equal(await page.locator('#play-drawing g.hb-edge').count(), 5);
  await play(page.locator('#play-drawing g.hb-edge[data-edge="1"]'));
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  log = await logged();
  assert.equal(log[0], 'cut 1-2:B');
  assert.match(log[1], /^cut \d+-\d+:[RG]$/);
  assert.ok(await page.locator('#play-drawing g.hb-edge').count() <= 2, 'the cut edges and what stood on them are gone');
  await shot('54-play-hackenbush.png');
  // Cutcake: Left cuts the 3 × 4 down its middle line; Right replies across.
  await startGame('cutcake[3x4]');
  await play(page.locator('#play-drawing g.score-line[data-line="1"]'));
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  log = await logged();
  assert.equal(log[0], 'cut 3x4 into 3x2 + 3x2');
  assert.match(log[1], /^cut 3x2 into 1x2 \+ 2x2$/);
  assert.equal(await page.locator('#play-drawing g.piece-of-cake').count(), 3);
  await shot('55-play-cutcake.png');
  // The keyboard: Tab to a score line, Enter cuts there.
  await startGame('cutcake[2x2]');
  let tabs = 0;
  while (!(await page.evaluate(() => document.activeElement.matches('#play-drawing g.score-line.move')))) {
    await page.keyboard.press('Tab');
    tabs += 1;
    assert.ok(tabs < 40, 'a score line is reached by Tab');
  }
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 1);
  assert.equal((await logged())[0], 'cut 2x2 into 2x1 + 2x1');
});

test('at 390 px wide a board and the value history do not scroll sideways', async () => {
  const narrow = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await narrow.newPage();
  phone.on('pageerror', (e) => pageErrors.push(e));
  const wide = () => phone.evaluate(() => document.scrollingElement.scrollWidth);
  await phone.goto(base);
  await phone.waitForSelector('body[data-ready="true"]');
  await phone.click('#tab-explore');
  await phone.fill('#spec', 'connect4[4x4](2323)');
  await phone.click('#solve');
  await phone.waitForSelector('#explore-drawing');
  assert.ok(await wide() <= 390, `Explore: ${await wide()} px`);
  const board = await phone.locator('#explore-drawing').boundingBox();
  assert.ok(board.width >= 200, `the board is ${board.width} px wide`);
  await phone.click('#tab-play');
  await phone.fill('#play-spec', 'connect4[4x4]');
  await phone.click('#play-first');
  await phone.waitForSelector('#play-drawing');
  await phone.check('#hint');
  for (let turn = 1; turn <= 2; turn++) {
    await phone.locator('#play-drawing g.cell.move').first().click();
    await phone.waitForFunction((n) => document.querySelectorAll('#history circle.point').length === n, 2 * turn);
  }
  assert.ok(await wide() <= 390, `Play: ${await wide()} px`);
  await phone.screenshot({ path: join(shots, '17-phone-board.png'), fullPage: true });
  await narrow.close();
});

test('graph: a green-game file, Ann\'s fields marked', async () => {
  await load();
  await page.click('#tab-graph');
  await page.setInputFiles('#graph-file', {
    name: 'green.txt',
    mimeType: 'text/plain',
    buffer: readFileSync(join(here, 'fixtures', 'green.txt')),
  });
  await page.waitForSelector('#graph-result:not([hidden])');
  assert.equal(await page.textContent('#graph-summary'),
    'green.txt: poi game, 8 fields, 14 edges; objective: buchi.');
  assert.equal(await page.textContent('#won-0'), 'Ann wins from 5 fields: 1, 2, 4, 5, 8');
  assert.equal(await page.textContent('#won-1'), 'Billy wins from 3 fields: 3, 6, 7');
  assert.equal(await page.textContent('#graph-verified'), 'The regions and strategies passed the independent checker.');
  // The drawing: Ann's winning fields filled green, Billy's red; strategies in bold.
  const marked = await page.locator('#graph-drawing g.vertex.won-0').evaluateAll((gs) => gs.map((g) => g.dataset.id));
  assert.deepEqual(marked, ['1', '2', '4', '5', '8']);
  const fill = await page.locator('#graph-drawing g.vertex.won-0 circle').first()
    .evaluate((c) => getComputedStyle(c).fill);
  assert.equal(fill, 'rgb(134, 239, 172)');
  assert.equal(await page.locator('#graph-drawing g.vertex.accepting').count(), 3);
  assert.equal(await page.locator('#graph-drawing path.edge.strategy').count(), 5);
  assert.match(await page.getAttribute('#graph-download', 'href'), /^blob:/);
  assert.equal(await page.getAttribute('#graph-download', 'download'), 'green.txt.sol');
  await shot('07-green-game.png');
});

test('graph: the example green game, and a token game on a digraph', async () => {
  await load();
  await page.click('#tab-graph');
  await page.click('#graph-example');
  await page.waitForSelector('#graph-result:not([hidden])');
  assert.equal(await page.textContent('#won-0'), 'Ann wins from 3 fields: 1, 2, 6');
  await page.fill('#graph-text', '4 4\n0 1\n1 2\n2 3\n3 2\n');
  await page.click('#graph-solve');
  await page.waitForFunction(() => document.getElementById('graph-summary').textContent.includes('digraph'));
  assert.deepEqual(await texts('#graph-won li'),
    ['win for the player to move: 0', 'loss: 0', 'draw: 4']);
  assert.equal(await page.locator('#graph-drawing g.vertex.draw').count(), 4);
  // Each vertex's outcome, remoteness and generalised Grundy value, as the command line
  // gives them: in a table, in the drawing and in each vertex's title.
  await page.fill('#graph-text', '4 3\n0 1\n1 2\n3 3\n');
  await page.click('#graph-solve');
  await page.waitForFunction(() => document.getElementById('graph-summary').textContent.includes('3 edges'));
  const rows = await page.locator('#graph-values tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, [
    ['0', 'loss', '2', '0'], ['1', 'win', '1', '1'], ['2', 'loss', '0', '0'], ['3', 'draw', '—', 'inf{}']]);
  assert.deepEqual(await texts('#graph-drawing g.vertex text.second'), ['0', '1', '0', 'inf{}']);
  assert.equal(await page.textContent('#graph-drawing g.vertex[data-id="0"] title'),
    'vertex 0: loss for the player to move, remoteness 2, Grundy value 0');
  assert.equal(await page.textContent('#graph-drawing g.vertex[data-id="3"] title'),
    'vertex 3: draw for the player to move, Grundy value inf{}');
  await shot('10-token-values.png');
});

/** A PGSolver arena: `n` vertices, vertex v named `name(v)`, with the edges `succ(v)`. */
function pgsolver(n, succ, name) {
  let text = `parity ${n - 1};\n`;
  for (let v = 0; v < n; v++) text += `${v} ${v % 7} ${v % 2} ${succ(v).join(',')} "${name(v)}";\n`;
  return text;
}

/** The drawing's vertices and edges, as laid out: centres, shapes, labels, titles. */
const geometry = () => page.evaluate(() => {
  const box = (b) => ({ x: b.x, y: b.y, w: b.width, h: b.height });
  const vertices = [...document.querySelectorAll('#graph-drawing g.vertex')].map((g) => {
    const shape = box(g.querySelector('circle, rect').getBBox());
    return {
      id: g.dataset.id,
      shape,
      centre: [shape.x + shape.w / 2, shape.y + shape.h / 2],
      onScreen: g.querySelector('circle, rect').getBoundingClientRect().width,
      texts: [...g.querySelectorAll('text')].map((t) => ({ ...box(t.getBBox()), text: t.textContent })),
      title: g.querySelector('title').textContent,
    };
  });
  const edges = [...document.querySelectorAll('#graph-drawing path.edge')].map((p) =>
    [Number(p.dataset.from), Number(p.dataset.to)]);
  const first = document.querySelector('#graph-drawing g.vertex');
  const edgesUnder = [...document.querySelectorAll('#graph-drawing path.edge')].every((p) =>
    Boolean(p.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING));
  return { vertices, edges, edgesUnder };
});

test('graph: 150 vertices drawn apart and readable, labels inside their vertices, long names cut with the whole in the title', async () => {
  await load();
  await page.click('#tab-graph');
  // A 10 × 15 grid (right and down), every vertex with a long name.
  const [w, h] = [10, 15];
  const name = (v) => `a-rather-long-vertex-name-${v}`;
  const succ = (v) => {
    const out = [];
    if (v % w < w - 1) out.push(v + 1);
    if (v + w < w * h) out.push(v + w);
    return out.length ? out : [v];
  };
  await page.fill('#graph-text', pgsolver(w * h, succ, name));
  await page.click('#graph-solve');
  await page.waitForSelector('#graph-result:not([hidden])');
  assert.match(await page.textContent('#graph-summary'), /150 vertices/);
  const g = await geometry();
  assert.equal(g.vertices.length, 150);
  assert.ok(g.edgesUnder, 'edges are drawn under the vertices');
  const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  let nearest = Infinity;
  for (const [i, v] of g.vertices.entries()) {
    // Every label (the name and the priority) lies inside its vertex: no label over an edge.
    assert.equal(v.texts.length, 2);
    for (const t of v.texts) {
      assert.ok(t.x >= v.shape.x - 0.5 && t.x + t.w <= v.shape.x + v.shape.w + 0.5
        && t.y >= v.shape.y - 0.5 && t.y + t.h <= v.shape.y + v.shape.h + 0.5,
      `vertex ${v.id}: "${t.text}" leaves its shape`);
    }
    assert.match(v.texts[0].text, /…/, 'a long name is cut');
    assert.match(v.texts[1].text, /^p\d$/);
    assert.ok(v.title.includes(`vertex ${name(Number(v.id))} (id ${v.id})`), v.title);
    assert.ok(v.onScreen >= 24, `vertex ${v.id} is ${v.onScreen} px wide on screen`);
    for (const u of g.vertices.slice(i + 1)) nearest = Math.min(nearest, dist(v.centre, u.centre));
  }
  const radius = g.vertices[0].shape.w / 2;
  assert.ok(nearest >= 2 * radius + 4, `no two vertices overlap (closest centres ${nearest})`);
  // A layout that follows the graph: grid edges are short, near the closest spacing of
  // vertices (on a circle, half of them would be long chords across the drawing).
  const lengths = g.edges.filter(([a, b]) => a !== b)
    .map(([a, b]) => dist(g.vertices[a].centre, g.vertices[b].centre)).sort((a, b) => a - b);
  assert.equal(lengths.length, 10 * 14 + 9 * 15);
  const p90 = lengths[Math.floor(lengths.length * 0.9)];
  assert.ok(p90 <= 3 * nearest, `90 % of the edges are at most ${p90} long, nearest ${nearest}`);
  await shot('11-grid-150.png');
});

test('graph: a pasted PGSolver arena, solved as a parity game', async () => {
  await load();
  await page.click('#tab-graph');
  await page.fill('#graph-text', 'parity 3;\n0 2 0 1 "a";\n1 1 1 0,2 "b";\n2 3 1 2,3 "c";\n3 4 0 3 "d";\n');
  await page.click('#graph-solve');
  await page.waitForSelector('#graph-result:not([hidden])');
  assert.equal(await page.textContent('#graph-summary'),
    'pasted text: pgsolver game, 4 vertices, 6 edges; objective: parity.');
  assert.equal(await page.textContent('#won-0'), 'player 0 wins from 1 vertex: 3');
  assert.equal(await page.textContent('#won-1'), 'player 1 wins from 3 vertices: 0, 1, 2');
  assert.match(await page.textContent('#graph-verified'), /independent checker/);
  const labels = await texts('#graph-drawing g.vertex text');
  assert.deepEqual(labels, ['a', 'p2', 'b', 'p1', 'c', 'p3', 'd', 'p4']);
  await shot('08-parity.png');
});

test('graph: a file name and a bad file stay text', async () => {
  await load();
  await page.click('#tab-graph');
  await page.setInputFiles('#graph-file', {
    name: '<img src=x onerror=alert(1)>.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('2 1\n0 2 2 3\n1 1 1\n0 2 3 1\n'),
  });
  await page.waitForSelector('#graph-result:not([hidden])');
  assert.match(await page.textContent('#graph-summary'), /^<img src=x onerror=alert\(1\)>\.txt: poi game/);
  assert.equal(await page.locator('img').count(), 0, 'the name did not become an element');
  await page.fill('#graph-text', '2 1\n0 2 2 3\n1 1 9\n0 2 3 1\n');
  await page.click('#graph-solve');
  await page.waitForSelector('#graph-error:not([hidden])');
  assert.match(await page.textContent('#graph-error'), /^pasted text, line 3, column 5: /);
  await shot('09-bad-file.png');
});

test('at 390 px wide no tab scrolls sideways', async () => {
  const narrow = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await narrow.newPage();
  phone.on('pageerror', (e) => pageErrors.push(e));
  const wide = () => phone.evaluate(() => document.scrollingElement.scrollWidth);
  await phone.goto(base);
  await phone.waitForSelector('body[data-ready="true"]');
  assert.ok(await wide() <= 390, 'the gallery');
  await phone.click('#tab-explore');
  for (const spec of ['nim(3) + octal[0.77](12) + multiple[2](10)',
    'nim(10^18,12345,7) + octal[0.77](12) + subtraction[1,3,4](20) + bounded-nim[3](10)',
    `nim(${'1,'.repeat(60)}1)`]) {
    await phone.fill('#spec', spec);
    await phone.click('#solve');
    await phone.waitForSelector('#explore-result:not([hidden]), #explore-error:not([hidden])');
    await phone.waitForFunction(() => document.getElementById('explore-busy').hidden);
    assert.ok(await wide() <= 390, `Explore ${spec}: ${await wide()} px`);
  }
  await phone.screenshot({ path: join(shots, '12-phone-explore.png'), fullPage: true });
  await phone.click('#tab-play');
  await phone.fill('#play-spec', 'nim(1000000000000000000,12345,7) + octal[0.77](12) + multiple[2](10)');
  await phone.click('#play-first');
  await phone.waitForSelector('#game:not([hidden])');
  await phone.check('#hint');
  await phone.locator('#choices button').first().click();
  await phone.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  assert.ok(await wide() <= 390, `Play: ${await wide()} px`);
  await phone.click('#tab-graph');
  await phone.fill('#graph-text', pgsolver(30, (v) => [(v * 7 + 1) % 30, (v + 1) % 30], (v) => `name-${v}-${'x'.repeat(v)}`));
  await phone.click('#graph-solve');
  await phone.waitForSelector('#graph-result:not([hidden])');
  assert.ok(await wide() <= 390, `Graph: ${await wide()} px`);
  await phone.fill('#graph-text', '3 2\n0 1\n1 2\n');
  await phone.selectOption('#graph-objective', 'token');
  await phone.click('#graph-solve');
  await phone.waitForSelector('#graph-values-box:not([hidden])');
  assert.ok(await wide() <= 390, `Token game: ${await wide()} px`);
  await phone.screenshot({ path: join(shots, '13-phone-graph.png'), fullPage: true });
  await narrow.close();
});

/** What `grundy olympiad TASK --solve` prints for `file` (a fixture), line by line. */
function olympiadSolve(task, file) {
  const run = spawnSync(binary(), ['olympiad', task, '--solve'], { input: readFileSync(join(here, 'fixtures', file)) });
  assert.equal(run.status, 0, String(run.stderr));
  return String(run.stdout).trim().split('\n');
}

/** Clicks the part of a figure `locator` names at its centroid (a thin triangle's box
 * centre may lie in its neighbour). */
async function clickFigurePart(locator) {
  const at = await locator.evaluate((g) => {
    const shape = g.querySelector('polygon, circle, rect');
    let points;
    if (shape.tagName === 'polygon') {
      points = Array.from({ length: shape.points.numberOfItems }, (_, i) => shape.points.getItem(i));
    } else {
      const b = shape.getBBox();
      points = [{ x: b.x + b.width / 2, y: b.y + b.height / 2 }];
    }
    const x = points.reduce((sum, q) => sum + q.x, 0) / points.length;
    const y = points.reduce((sum, q) => sum + q.y, 0) / points.length;
    const m = shape.getScreenCTM();
    const box = g.getBoundingClientRect();
    return { x: m.a * x + m.c * y + m.e - box.left, y: m.b * x + m.d * y + m.f - box.top };
  });
  await locator.click({ position: at });
}

/** Loads a contest fixture on `p`'s Play tab, from its file. */
async function loadContest(p, task, file) {
  await p.click('#tab-play');
  if (!(await p.locator('#contest').evaluate((d) => d.open))) await p.click('#contest summary');
  await p.selectOption('#contest-task', task);
  await p.setInputFiles('#contest-file', {
    name: file, mimeType: 'text/plain', buffer: readFileSync(join(here, 'fixtures', file)),
  });
  await p.waitForFunction((f) => document.getElementById('contest-summary').textContent.startsWith(`${f}:`)
    && !document.getElementById('game').hidden, file);
}

test('contest: a Score board from a file, drawn, solved as `grundy olympiad` says, and played to a win', async () => {
  await load();
  const cli = olympiadSolve('ioi2001-score', 'score-board.txt');
  await loadContest(page, 'ioi2001-score', 'score-board.txt');
  // The report is the command line's: who wins, the winning move.
  assert.equal(await page.textContent('#contest-summary'), `score-board.txt: ${cli[0]}`);
  assert.equal(cli[1], 'winning moves (1), to:');
  assert.equal(await page.textContent('#contest-best'), 'Winning move: to 3.');
  // The graph: four positions with their owners and values, six arrows, the token on 1.
  const vertices = page.locator('#play-drawing g.vertex');
  assert.deepEqual(await vertices.evaluateAll((gs) => gs.map((g) => [g.dataset.id, g.dataset.owner, g.dataset.value])),
    [['1', '1', '1'], ['2', '2', '3'], ['3', '1', '4'], ['4', '2', '2']]);
  assert.equal(await page.locator('#play-drawing path.edge').count(), 6);
  assert.equal(await page.getAttribute('#play-drawing g.vertex.token', 'data-id'), '1');
  assert.equal(await page.locator('#play-drawing g.vertex.owner-2 rect').count(), 2, 'player 2\'s are squares');
  assert.match(await page.textContent('#figure-note'), /Scores so far: player 1 0, player 2 0\. You are player 1\./);
  // With hints, the winning move's vertex is green and leads where the command line says.
  await page.check('#hint');
  const winning = page.locator('#play-drawing g.vertex.move.win');
  assert.equal(await winning.count(), 1);
  assert.equal(await winning.getAttribute('data-spec'), cli[2].trim());
  await shot('18-score-board.png');
  // Play it: position 3 is player 1's too, so you move again; then to 4, player 2's,
  // whose only arrow goes back to 1: the engine's move ends the game, 4 to 2.
  await clickFigurePart(winning);
  await page.waitForFunction(() => document.getElementById('position').textContent === 'score-board(3,1,0)');
  assert.equal(await page.getAttribute('#play-drawing g.vertex.token', 'data-id'), '3');
  assert.match(await page.textContent('#figure-note'), /Token on position 3 .*Scores so far: player 1 1, player 2 0\./);
  await clickFigurePart(page.locator('#play-drawing g.vertex.move.win'));
  await page.waitForFunction(() => document.querySelectorAll('#log li').length === 3);
  assert.deepEqual(await texts('#log li code'), ['to 3', 'to 4', 'to 1']);
  assert.equal(await page.textContent('#status'), 'the game is over: you won.');
  assert.equal(await page.getAttribute('#play-drawing g.vertex.token', 'data-id'), '1');
  assert.match(await page.textContent('#figure-note'), /back on position 1: the game is over\. Scores so far: player 1 4, player 2 2\./);
  await shot('19-score-board-won.png');
});

test('contest: a Polygons triangulation from a file, the black triangle filled, a cut clicked', async () => {
  await load();
  const cli = olympiadSolve('poi1999-polygon', 'octagon.txt');
  await loadContest(page, 'poi1999-polygon', 'octagon.txt');
  assert.equal(await page.textContent('#contest-summary'), `octagon.txt: ${cli[0]}`);
  assert.equal(await page.textContent('#contest-rule'), `Special method — ${cli[cli.length - 1]}`);
  const triangles = page.locator('#play-drawing g.triangle');
  assert.equal(await triangles.count(), 6);
  assert.equal(await page.locator('#play-drawing g.triangle.left').count(), 6);
  const black = page.locator('#play-drawing g.triangle.black');
  assert.equal(await black.getAttribute('data-triangle'), '1');
  assert.equal(await black.locator('polygon').evaluate((q) => getComputedStyle(q).fill), 'rgb(31, 41, 55)');
  // The triangles that can be cut off are the moves; with hints the winning ones are
  // green, each leading where the command line's winning moves do.
  await page.check('#hint');
  const cuttable = await page.locator('#play-drawing g.triangle.move').evaluateAll((gs) => gs.map((g) => g.dataset.triangle).sort());
  assert.deepEqual(cuttable, ['2', '4', '5']);
  const green = await page.locator('#play-drawing g.triangle.move.win').evaluateAll((gs) => gs.map((g) => g.dataset.spec).sort());
  assert.deepEqual(green, cli.slice(3, 6).map((l) => l.trim()).sort());
  await clickFigurePart(page.locator('#play-drawing g.triangle[data-triangle="4"]'));
  await page.waitForFunction(() => document.querySelectorAll('#log li').length === 2);
  assert.equal(await page.textContent('#log li:first-child code'), 'cut triangle 4 (3 4 5)');
  // Your cut and the engine's are gone from the picture; four triangles are left.
  assert.equal(await page.getAttribute('#play-drawing g.triangle[data-triangle="4"]', 'data-left'), 'false');
  assert.equal(await page.locator('#play-drawing g.triangle.left').count(), 4);
  assert.match(await page.textContent('#figure-note'), /^8-gon: 4 of 6 triangles left/);
  await shot('20-polygon.png');
});

test('contest: a bad board is refused with its line and column; at 390 px the figures fit', async () => {
  await load();
  await page.click('#tab-play');
  await page.click('#contest summary');
  await page.fill('#contest-text', '4\n0 1 1 0\n1 0 x 1\n');
  await page.click('#contest-first');
  await page.waitForSelector('#play-error:not([hidden])');
  assert.equal(await page.textContent('#play-error'),
    'Cannot load pasted text: pasted text, line 3, column 5: expected an arrow (0 or 1), found `x`');
  await page.fill('#contest-text', '5001\n');
  await page.click('#contest-first');
  await page.waitForFunction(() => document.getElementById('play-error').textContent.includes('5001'));
  assert.match(await page.textContent('#play-error'), /line 1, column 1: the number of positions N must be at most 5000, found 5001$/);
  const narrow = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await narrow.newPage();
  phone.on('pageerror', (e) => pageErrors.push(e));
  const wide = () => phone.evaluate(() => document.scrollingElement.scrollWidth);
  await phone.goto(base);
  await phone.waitForSelector('body[data-ready="true"]');
  for (const [task, file] of [['ioi2001-score', 'score-board.txt'], ['poi1999-polygon', 'octagon.txt']]) {
    await loadContest(phone, task, file);
    await phone.check('#hint');
    await clickFigurePart(phone.locator('#play-drawing [data-spec]').first());
    await phone.waitForFunction(() => document.querySelectorAll('#log li').length >= 1);
    assert.ok(await wide() <= 390, `${file}: ${await wide()} px`);
    const figure = await phone.locator('#play-drawing').boundingBox();
    assert.ok(figure.width >= 150 && figure.width <= 390, `${file}: the figure is ${figure.width} px wide`);
    await phone.screenshot({ path: join(shots, `21-phone-${task}.png`), fullPage: true });
    await phone.uncheck('#hint');
  }
  await narrow.close();
});

/** Sends raw HTTP `head` (request line and headers) to the server; the status and body. */
function raw(head) {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(`${head}\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => { text += d; });
    socket.on('end', () => {
      const [top, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(top.split(' ')[1]), headers: top.toLowerCase(), body: rest.join('\r\n\r\n') });
    });
    socket.on('error', reject);
  });
}

test('server: only loopback names are answered, every 405 is the JSON error, limits are numbers', async () => {
  const port = new URL(base).port;
  for (const host of [null, `127.0.0.1:${port}.evil.com`, 'evil.example', `localhost:${port}x`, '127.0.0.1:']) {
    const a = await raw(`GET /api/catalog HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}Connection: close\r\n`);
    assert.equal(a.status, 403, `Host ${host}`);
    assert.equal(JSON.parse(a.body).kind, 'bad-host', `Host ${host}`);
  }
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
    const a = await raw(`GET /api/catalog HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n`);
    assert.equal(a.status, 200, `Host ${host}`);
  }
  for (const [method, path, allow] of [['GET', '/api/play', 'post'], ['POST', '/api/solve?spec=nim(1)', 'get'],
    ['DELETE', '/', 'get'], ['PUT', '/api/graph', 'post']]) {
    const a = await raw(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\nConnection: close\r\n`);
    assert.equal(a.status, 405, `${method} ${path}`);
    assert.match(a.headers, new RegExp(`\r\nallow: [^\r]*${allow}`), a.headers);
    const body = JSON.parse(a.body);
    assert.equal(body.kind, 'bad-method');
    assert.match(body.error, new RegExp(`^${method} is not allowed on `));
  }
  const catalog = await (await fetch(`${base}api/catalog`)).json();
  for (const [name, value] of Object.entries(catalog.limits)) assert.equal(typeof value, 'number', name);
  assert.equal(catalog.limits.max_work, 2e9);
});

test('gallery: the start page shows every family of the catalog, drawn, with its rules and examples', async () => {
  const catalog = await (await fetch(`${base}api/catalog`)).json();
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const context = await browser.newContext({ viewport: { width, height } });
    const p = await context.newPage();
    p.on('pageerror', (e) => pageErrors.push(e));
    await p.goto(base);
    await p.waitForSelector('body[data-ready="true"]');
    assert.equal(await p.getAttribute('#tab-games', 'aria-selected'), 'true', 'the gallery is the start page');
    // One card a family of the registry (the catalog's list: a new family gets a card),
    // those drawn first, each group in the registry's order.
    const cards = await p.locator('#gallery .game-card').evaluateAll((lis) => lis.map((li) => ({
      family: li.dataset.family,
      drawn: li.querySelectorAll('.game-picture svg').length,
      cells: li.querySelectorAll('.game-picture g.cell').length,
      rules: li.querySelector('.game-rules').textContent,
      examples: [...li.querySelectorAll('.game-example code')].map((c) => c.textContent),
    })));
    const drawnFirst = [...catalog.gallery.filter((g) => g.picture || g.figure),
      ...catalog.gallery.filter((g) => !(g.picture || g.figure))];
    assert.deepEqual(cards.map((c) => c.family), drawnFirst.map((g) => g.name));
    assert.deepEqual([...cards.map((c) => c.family)].sort(), catalog.families.map((f) => f.name).sort());
    for (const [card, g] of cards.map((c, i) => [c, drawnFirst[i]])) {
      assert.equal(card.rules, g.rules, card.family);
      assert.ok(card.rules.length > 0, card.family);
      assert.deepEqual(card.examples, g.examples.length ? g.examples : [g.spec], card.family);
      if (g.picture) {
        assert.equal(card.drawn, 1, `${card.family} is drawn`);
        assert.ok(card.cells > 0, `${card.family}: its cells`);
      } else if (g.figure) {
        assert.equal(card.drawn, 1, `${card.family} is drawn`);
      }
    }
    for (const family of ['connect4', 'hex', 'dots', 'kalah', 'chomp', 'quixo', 'tictactoe', 'ioiwari', 'polygon',
      'circular', 'hackenbush', 'cutcake', 'toads']) {
      assert.equal(cards.find((c) => c.family === family).drawn, 1, `${family} has its picture`);
    }
    // Every family of the registry is drawn.
    assert.deepEqual(cards.filter((c) => c.drawn !== 1).map((c) => c.family), [], 'families not drawn');
    const wide = await p.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(wide <= width, `${width} px: the gallery is ${wide} px wide`);
    await p.screenshot({ path: join(shots, `29-gallery-${width}.png`), fullPage: true });
    if (width === 1280 && process.env.UPDATE_SCREENSHOT === '1') {
      await p.screenshot({ path: join(root, 'docs', 'gallery.png') });
    }
    // An example's Explore opens it with its board; Play starts a game of it.
    const card = p.locator('#gallery .game-card[data-family="connect4"]');
    await card.locator('button.see').first().click();
    await p.waitForFunction(() => document.getElementById('summary').textContent.startsWith('connect4[4x4]'));
    assert.equal(await p.getAttribute('#tab-explore', 'aria-selected'), 'true');
    assert.equal(await p.locator('#explore-drawing g.hole').count(), 16);
    await p.click('#tab-games');
    await p.locator('#gallery .game-card[data-family="chomp"] button.play').first().click();
    await p.waitForSelector('#play-drawing');
    assert.equal(await p.textContent('#position'), 'chomp[3x4](4,4,4)');
    await context.close();
  }
});

test('explore: the move cards name each move as the library does, shaded by remoteness, with a legend', async () => {
  await load();
  await exploreSpec('connect4[4x4]');
  const r = await report('connect4[4x4]');
  const tiles = await page.locator('#moves li').evaluateAll((lis) => lis.map((li) => ({
    spec: li.dataset.spec,
    label: li.querySelector('.spec').textContent,
    aria: li.querySelector('.spec').getAttribute('aria-label'),
    fill: getComputedStyle(li).backgroundColor,
    whole: li.querySelector('.spec').scrollWidth <= li.querySelector('.spec').clientWidth + 1,
  })));
  assert.deepEqual(tiles.map((t) => t.label), ['column 1', 'column 2', 'column 3', 'column 4']);
  for (const [t, m] of tiles.map((x, i) => [x, r.moves[i]])) {
    assert.equal(t.spec, m.spec);
    assert.equal(t.label, m.name);
    assert.ok(t.whole, `${t.label} is shown whole`);
    assert.equal(t.fill, fillOf(m.outcome, strengthOf(m)), t.label);
    const value = m.outcome === 'draw' ? 'draw' : `${m.outcome === 'win' ? 'win' : 'lose'} in ${m.remoteness}`;
    assert.equal(t.aria, `${m.name}: ${value}`);
  }
  // Shading: the sooner a move's end, the stronger its colour; in 1 move the strongest.
  const byEnd = [];
  for (const spec of ['tictactoe(xx./oo./...)', 'tictactoe(x../..o/...)']) {
    await exploreSpec(spec);
    const shades = await page.locator('#moves li').evaluateAll((lis) => lis.map((li) => [
      li.querySelector('.value').textContent, Number(li.dataset.strength)]));
    byEnd.push(...shades.filter(([v]) => /in \d+$/.test(v)).map(([v, x]) => [Number(v.split(' ').at(-1)), x]));
  }
  assert.deepEqual([...new Set(byEnd.map(([a]) => a))].sort(), [1, 2, 5, 6]);
  for (const [a, x] of byEnd) {
    for (const [b, y] of byEnd) if (a < b) assert.ok(x > y, `in ${a}: ${x}, in ${b}: ${y}`);
    if (a === 1) assert.equal(x, 1, 'a move that ends the game at once: the strongest');
  }
  // The legend: win in 1 to later, draw, lose in 1 to later.
  const keys = await texts('#moves-legend .key');
  assert.deepEqual(keys, ['win in 1', 'win later', 'draw', 'lose in 1', 'lose later']);
  const swatch = await page.locator('#moves-legend .swatch').first().evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(swatch, fillOf('win', 1));
});

test('play: the value history ends at the edge when the game is over, labels once, undo and redo', async () => {
  // Tic-tac-toe, taking the losing cells: grundy wins; its last move ends the game.
  await startGame('tictactoe(x../.o./..x)');
  await page.check('#hint');
  while ((await page.locator('#status.over').count()) === 0) {
    const r = await report(await page.textContent('#position'));
    const m = r.moves.find((x) => x.outcome === 'loss') || r.moves[0];
    await play(page.locator(`#play-drawing g.cell[data-row="${m.cell[0]}"][data-column="${m.cell[1]}"]`));
  }
  const edges = await page.evaluate(() => {
    const h = document.getElementById('history');
    const lines = [...h.querySelectorAll('.grid-line')].map((l) => Number(l.getAttribute('y1')));
    const points = [...h.querySelectorAll('circle.point')];
    const last = points[points.length - 1];
    return {
      bottom: Math.max(...lines), cy: Number(last.getAttribute('cy')), after: last.dataset.left,
      title: last.querySelector('title').textContent,
      left: [...h.querySelectorAll('text.tick.left')].map((t) => t.textContent),
      numbers: [...h.querySelectorAll('text.tick.number')].map((t) => t.textContent),
    };
  });
  assert.equal(edges.after, '0', 'no move is left after the last one');
  assert.equal(edges.cy, edges.bottom, 'the last point on grundy\'s edge');
  assert.match(edges.title, /0 moves left$/);
  // Each axis says each number once: moves left 0 and the most, the first and last move.
  assert.equal(edges.left.length, 2);
  assert.equal(new Set(edges.left).size, 2, `moves left: ${edges.left}`);
  assert.deepEqual(edges.numbers, ['1', String((await historyPoints()).length)]);
  // Undo takes back the last pair; Redo plays it again, as it was.
  const points = (await historyPoints()).length;
  const log = await texts('#log li');
  assert.equal(await page.isDisabled('#redo'), true);
  await page.click('#undo');
  assert.ok((await historyPoints()).length < points);
  assert.equal(await page.textContent('#status'), 'Your move.');
  assert.equal(await page.isDisabled('#redo'), false);
  await page.click('#redo');
  assert.equal((await historyPoints()).length, points);
  assert.deepEqual(await texts('#log li'), log);
  assert.equal(await page.locator('#status.over').count(), 1);
  assert.equal(await page.isDisabled('#redo'), true);
  // A new move after Undo forgets what Redo would have played.
  await page.click('#undo');
  const r = await report(await page.textContent('#position'));
  await play(page.locator(`#play-drawing g.cell[data-row="${r.moves[0].cell[0]}"][data-column="${r.moves[0].cell[1]}"]`));
  assert.equal(await page.isDisabled('#redo'), true);
});

test('at 390 px the value history is drawn at its size: its text readable, nothing sideways', async () => {
  const narrow = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await narrow.newPage();
  phone.on('pageerror', (e) => pageErrors.push(e));
  await phone.goto(base);
  await phone.waitForSelector('body[data-ready="true"]');
  await phone.click('#tab-play');
  await phone.fill('#play-spec', 'tictactoe');
  await phone.click('#play-first');
  await phone.waitForSelector('#play-drawing');
  for (let turn = 1; turn <= 3; turn++) {
    await phone.locator('#play-drawing g.cell.move').first().click();
    await phone.waitForFunction((n) => document.querySelectorAll('#history circle.point').length === n, 2 * turn);
  }
  const sizes = await phone.evaluate(() => [...document.querySelectorAll('#history text')]
    .map((t) => t.getBoundingClientRect().height));
  assert.ok(sizes.every((h) => h >= 10), `text heights ${sizes}`);
  assert.ok(await phone.evaluate(() => document.scrollingElement.scrollWidth) <= 390);
  await phone.screenshot({ path: join(shots, '30-phone-history.png'), fullPage: true });
  await narrow.close();
});

test('options: a family\'s sizes as the library offers them, in the gallery, Explore and Play', async () => {
  const catalog = await (await fetch(`${base}api/catalog`)).json();
  const withOptions = catalog.gallery.filter((g) => g.options);
  await load();
  // Explore's panel (folded until opened) lists the families that have options, each
  // setting as the library names it, its values as offered.
  await page.click('#explore-options summary');
  const families = await page.locator('#explore-options-family option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(families, withOptions.map((g) => g.name));
  await page.selectOption('#explore-options-family', 'kalah');
  const kalah = withOptions.find((g) => g.name === 'kalah');
  const labels = await page.locator('#explore-options-settings label').evaluateAll((ls) => ls.map((l) => l.firstChild.textContent));
  assert.deepEqual(labels, kalah.options.settings.map((s) => s.label));
  const seeds = await page.locator('#explore-option-seeds option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(seeds, kalah.options.settings.find((s) => s.name === 'seeds').choices.map((c) => c.value));
  await page.selectOption('#explore-option-seeds', '2');
  await page.click('#explore-options-go');
  await page.waitForFunction(() => document.getElementById('summary').textContent.startsWith('kalah[3,2]'));
  assert.equal(await page.locator('#explore-drawing g.pit').count(), 6);
  // A combination the family refuses: its reason, from the library.
  await page.selectOption('#explore-options-family', 'mnk');
  await page.selectOption('#explore-option-m', '2');
  await page.selectOption('#explore-option-n', '2');
  await page.selectOption('#explore-option-k', '4');
  await page.click('#explore-options-go');
  await page.waitForSelector('#explore-error:not([hidden])');
  assert.match(await page.textContent('#explore-error'), /k is at most the longer side/);
  // Play's panel: connect four on 5 columns of 4 rows, played on its board.
  await page.click('#tab-play');
  await page.click('#play-options summary');
  await page.selectOption('#play-options-family', 'connect4');
  await page.selectOption('#play-option-columns', '5');
  await page.selectOption('#play-option-rows', '4');
  await page.click('#play-options-go');
  await page.waitForFunction(() => document.getElementById('position').textContent.startsWith('connect4[5x4]'));
  assert.equal(await page.locator('#play-drawing g.hole').count(), 20);
  await play(page.locator('#play-drawing g.cell.move').first());
  await shot('39-options-connect4.png');
  // A gallery card's options: Chomp on two rows, played; the panels follow the family.
  await load({ gallery: true });
  const card = page.locator('#gallery .game-card[data-family="chomp"]');
  await card.locator('details.game-options summary').click();
  await card.locator('select[data-setting="rows"]').selectOption('2');
  await card.locator('details.game-options button.play').click();
  await page.waitForFunction(() => document.getElementById('position').textContent === 'chomp[2x4](4,4)');
  assert.equal(await page.inputValue('#play-options-family'), 'chomp');
  assert.equal(await page.inputValue('#explore-options-family'), 'chomp');
  // A game opened by its address: the panels show its family's options (octal's, for
  // Kayles).
  await page.goto(`${base}#play=${encodeURIComponent('kayles(9)')}`);
  await page.reload();
  await page.waitForSelector('#game:not([hidden])');
  assert.equal(await page.inputValue('#play-options-family'), 'octal');
});

test('every family of the catalog at 1280 and 390 px: Explore and Play drawn, a screenshot each, none scrolls sideways', async () => {
  const catalog = await (await fetch(`${base}api/catalog`)).json();
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const context = await browser.newContext({ viewport: { width, height } });
    const p = await context.newPage();
    p.setDefaultTimeout(30000);
    p.on('pageerror', (e) => pageErrors.push(e));
    for (const g of catalog.gallery) {
      const spec = g.spec;
      // Explore: the position and its moves.
      await p.goto(`${base}#explore=${encodeURIComponent(spec)}`);
      await p.waitForSelector('body[data-ready="true"]');
      await p.waitForSelector('#explore-result:not([hidden]), #explore-error:not([hidden])');
      assert.equal(await p.locator('#explore-error').isHidden(), true, `${spec}: ${await p.textContent('#explore-error')}`);
      let wide = await p.evaluate(() => document.scrollingElement.scrollWidth);
      assert.ok(wide <= width, `Explore ${spec} at ${width} px: ${wide} px wide`);
      await p.screenshot({ path: join(shots, 'families', `${g.name}-explore-${width}.png`), fullPage: true });
      // Play: the game opened by its address, with hints, after one move of yours.
      await p.goto(`${base}#play=${encodeURIComponent(spec)}`);
      await p.reload();
      await p.waitForSelector('body[data-ready="true"]');
      await p.waitForSelector('#game:not([hidden])');
      await p.check('#hint');
      const first = p.locator('#choices button, #play-board [role="button"]').first();
      if ((await p.locator('#play-board [role="button"]').count()) === 0 && (await p.locator('#choices button').count())) {
        await first.click();
        await p.waitForFunction(() => document.querySelectorAll('#log li').length >= 1 && !document.getElementById('play-first').disabled);
      }
      assert.equal(await p.locator('#play-board svg').count() >= 1, true, `${spec}: the board is drawn`);
      wide = await p.evaluate(() => document.scrollingElement.scrollWidth);
      assert.ok(wide <= width, `Play ${spec} at ${width} px: ${wide} px wide`);
      await p.screenshot({ path: join(shots, 'families', `${g.name}-play-${width}.png`), fullPage: true });
    }
    await context.close();
  }
});

/** axe-core's violations on `p` as it stands, of serious or critical impact: `[id: nodes]`. */
async function axeViolations(p) {
  await p.evaluate(axeSource);
  const result = await p.evaluate(() => window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
}

test('accessibility: axe-core finds no serious or critical violation on the gallery and a game page', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await context.newPage();
  p.on('pageerror', (e) => pageErrors.push(e));
  await p.goto(base);
  await p.waitForSelector('body[data-ready="true"]');
  assert.deepEqual(await axeViolations(p), [], 'the gallery');
  // A game in play, with hints and a value history; then Explore of a board.
  await p.goto(`${base}#play=${encodeURIComponent('connect4[4x4]')}&moves=${encodeURIComponent('connect4[4x4](1)')}`);
  await p.reload();
  await p.waitForSelector('body[data-ready="true"]');
  await p.waitForSelector('#history circle.point');
  await p.check('#hint');
  assert.deepEqual(await axeViolations(p), [], 'a game in play');
  await p.goto(`${base}#explore=${encodeURIComponent('kalah[3,3]')}`);
  await p.reload();
  await p.waitForSelector('body[data-ready="true"]');
  await p.waitForSelector('#explore-drawing');
  assert.deepEqual(await axeViolations(p), [], 'Explore');
  await context.close();
});

test('the page raised no script errors', () => {
  assert.deepEqual(pageErrors.map(String), []);
});
