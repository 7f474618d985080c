// test_browser.mjs TTTD_BIN [TTT_CLIENT_BIN] -- tttd's own web page in a
// real browser: Debian's chromium, headless, driven by playwright-core.
// Each test starts the real tttd on free loopback ports (its game port and
// its HTTP port) and stops it; the https test also runs HAProxy from
// docker/haproxy.cfg with TLS on, and ttt-client --tls.  Screenshots of the board go to $SHOT_DIR (default
// ./browser-shots) for a person to look at.
//
// Exit status: 0 all passed, 1 a test failed, 77 (skip) when chromium or
// playwright-core is not installed (.ci/install-deps installs both).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync,
  readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tttd = process.argv[2];
const tttClient = process.argv[3];
const haproxyPath = process.env.HAPROXY || '/usr/sbin/haproxy';
const haproxyCfg = path.join(here, '..', '..', 'docker', 'haproxy.cfg');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const shotDir = process.env.SHOT_DIR || path.resolve('browser-shots');
const STEP_MS = 10000;		// any one wait
const TEST_MS = 60000;		// any one test

if (!tttd || !existsSync(tttd)) {
  console.error('usage: test_browser.mjs TTTD_BIN');
  process.exit(2);
}
let chromium;
try {
  ({ chromium } = await import(path.join(here, 'node_modules',
    'playwright-core', 'index.mjs')));
} catch (e) {
  console.log('playwright-core is not installed (npm ci in tests/browser): skipped');
  process.exit(77);
}
if (!existsSync(chromiumPath)) {
  console.log(`${chromiumPath} is not installed: skipped`);
  process.exit(77);
}
mkdirSync(shotDir, { recursive: true });

// A free loopback port: bind 0, read it, let it go.
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

async function connectable(port) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(port, '127.0.0.1');
      c.on('connect', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on ${port}`);
}

// The real tttd on two free ports; stop() insists on exit status 0.
async function startTttd(extra = [], ports = {}) {
  const game = ports.game || await freePort();
  const http = ports.http || await freePort();
  const args = ['--port', String(game), '--http-port', String(http),
    '--bind', '127.0.0.1', '--seed', '3', ...extra];
  const proc = spawn(tttd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((resolve) => proc.on('exit', (code, sig) =>
    resolve(sig ? `signal ${sig}` : code)));
  await connectable(http);
  return {
    game, http, url: `http://127.0.0.1:${http}/`,
    log: () => log,
    kill: (sig) => proc.kill(sig),
    exited: () => exited,
    async stop() {
      proc.kill('SIGTERM');
      const st = await Promise.race([exited, sleep(STEP_MS).then(() => 'timeout')]);
      if (st === 'timeout') proc.kill('SIGKILL');
      if (st !== 0) throw new Error(`tttd exited with ${st}; its log:\n${log}`);
    },
  };
}

// An nc player: raw TCP lines, as a person with nc would type them.
class NcPlayer {
  constructor(port) {
    this.lines = [];
    this.waiters = [];
    this.buf = '';
    this.sock = net.connect(port, '127.0.0.1');
    this.sock.setEncoding('utf8');
    this.sock.on('data', (d) => {
      this.buf += d;
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i).replace(/\r$/, '');
        this.buf = this.buf.slice(i + 1);
        this.lines.push(line);
        this.waiters = this.waiters.filter((w) => !w());
      }
    });
  }
  send(line) { this.sock.write(line + '\r\n'); }
  // The first line from `from` on that starts with prefix.
  async want(prefix, from = 0) {
    const find = () => this.lines.findIndex((l, i) => i >= from && l.startsWith(prefix));
    if (find() >= 0) return { line: this.lines[find()], at: find() };
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(
        `nc player: no "${prefix}" in:\n${this.lines.join('\n')}`)), STEP_MS);
      this.waiters.push(() => (find() >= 0 ? (clearTimeout(t), resolve(), true) : false));
    });
    return { line: this.lines[find()], at: find() };
  }
  close() { this.sock.destroy(); }
}

const pageErrors = [];		// the page's own JavaScript errors
const cell = (page, name) => page.locator(`#board button[aria-label^="${name},"]`);

async function markOf(page, name) {
  const label = await cell(page, name).getAttribute('aria-label');
  return label.split(', ')[1];
}

async function waitStatus(page, re) {
  await page.waitForFunction((src) => new RegExp(src).test(
    document.getElementById('status').textContent), re.source,
  { timeout: STEP_MS });
}

// The match the page says it is in ("You play X against bob.").
async function waitMatch(page, re) {
  await page.waitForFunction((src) => new RegExp(src).test(
    document.getElementById('match-line').textContent), re.source,
  { timeout: STEP_MS });
}

async function myTurn(page) {
  return /^Your move/.test(await page.textContent('#status'));
}

// Play the named cell by mouse and wait for the server's board to show it.
async function click(page, name) {
  await cell(page, name).click();
  await page.waitForFunction((n) => !document.querySelector(
    `#board button[aria-label^="${n},"]`).getAttribute('aria-label')
    .endsWith('empty'), name, { timeout: STEP_MS });
}

const PHONE = { viewport: { width: 390, height: 844 } };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const TOUCH = { viewport: { width: 390, height: 844 }, hasTouch: true,
  isMobile: true };

// A new browser context (no name stored) and a page in it, watched for
// its JavaScript errors and for any request that failed (a 404).
async function newPage(browser, ctxOpts = PHONE) {
  const ctx = await browser.newContext(ctxOpts);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) pageErrors.push(`${r.status()} for ${r.url()}`);
  });
  return page;
}

// The page asks for a name before it joins: give it (none: no name).
async function join(page, name, { keys = false } = {}) {
  await page.waitForSelector('#join-form:not([hidden])', { timeout: STEP_MS });
  if (keys) {
    // The name field has the focus: type, then Enter.
    await page.keyboard.type(name || '');
    await page.keyboard.press('Enter');
  } else {
    await page.fill('#join-name', name || '');
    await page.click('#join-form button');
  }
  if (name) {
    await page.waitForFunction((n) => document.getElementById('log')
      .textContent.includes(`You are now called ${n}.`), name,
    { timeout: STEP_MS });
  }
}

// Is a cell's name (A1 in its corner) drawn clear?  Every pixel of the
// name's box must be a blend of the name's colour and the cell's
// background: anything drawn over it (the winning line's mark) is not.
// The number of pixels that are not, inside the box's outermost pixels
// (which, the box falling between pixels, may hold what is around it).
async function labelCovered(page, name) {
  const lab = cell(page, name).locator('.cellname');
  const png = (await lab.screenshot()).toString('base64');
  return page.evaluate(async ({ b64, n }) => {
    const rgb = (css) => css.match(/\d+/g).slice(0, 3).map(Number);
    const b = document.querySelector(`#board button[aria-label^="${n},"]`);
    const bg = rgb(getComputedStyle(b).backgroundColor);
    const fg = rgb(getComputedStyle(b.querySelector('.cellname')).color);
    const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
    const bmp = await createImageBitmap(blob);
    const cv = new OffscreenCanvas(bmp.width, bmp.height);
    const g = cv.getContext('2d');
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    const dir = fg.map((v, k) => v - bg[k]);
    const dd = dir.reduce((a, v) => a + v * v, 0);
    let bad = 0;
    for (let i = 0; i < d.length; i += 4) {
      const x = (i / 4) % bmp.width, y = Math.floor(i / 4 / bmp.width);
      if (x === 0 || y === 0 || x === bmp.width - 1 || y === bmp.height - 1)
        continue;
      const p = [d[i], d[i + 1], d[i + 2]];
      let t = p.reduce((a, v, k) => a + (v - bg[k]) * dir[k], 0) / dd;
      t = Math.max(0, Math.min(1, t));
      const off = Math.hypot(...p.map((v, k) => v - (bg[k] + t * dir[k])));
      if (off > 40) bad++;
    }
    return bad;
  }, { b64: png, n: name });
}

async function assertLabelsClear(page, names) {
  for (const n of names) {
    const bad = await labelCovered(page, n);
    if (bad) throw new Error(`${bad} pixels drawn over the name ${n}`);
  }
}

// The cells marked as the last move (by class and in their labels).
async function lastCells(page) {
  return page.evaluate(() => [...document.querySelectorAll('#board button')]
    .filter((b) => b.classList.contains('last')
      || b.getAttribute('aria-label').endsWith(', last move'))
    .map((b) => b.getAttribute('aria-label')));
}

// A page and an nc player play their lists of cells, in turn, whoever
// starts, until the nc player sees RESULT.  onMove(who, cell) after each.
async function playOut(page, nc, pageCells, ncCells, onMove = async () => {}) {
  let from = 0;
  pageCells = [...pageCells];
  ncCells = [...ncCells];
  for (;;) {
    const turnNc = nc.lines.slice(from).some((l) => l.startsWith('TURN')
      && / Enter your move/.test(l));
    if (nc.lines.some((l) => l.startsWith('RESULT'))) break;
    if (turnNc) {
      from = nc.lines.length;
      const c = ncCells.shift();
      nc.send(c);
      await nc.want('OK MOVE', from);
      await page.waitForFunction((n) => !document.querySelector(
        `#board button[aria-label^="${n},"]`).getAttribute('aria-label')
        .endsWith('empty'), c, { timeout: STEP_MS });
      await onMove('nc', c);
      continue;
    }
    if (await myTurn(page)) {
      const c = pageCells.shift();
      await click(page, c);
      await onMove('page', c);
      continue;
    }
    await sleep(50);
  }
  return (await nc.want('RESULT ')).line;
}

async function openPage(browser, url, name, ctxOpts = PHONE) {
  const page = await newPage(browser, ctxOpts);
  await page.goto(url);
  await join(page, name);
  return page;
}

// Two pages, mouse only: the one that moves first wins along row 1.
async function testTwoPagesPlayToAWin(browser) {
  const srv = await startTttd();
  try {
    const a = await openPage(browser, srv.url, 'ann', DESKTOP);
    const b = await openPage(browser, srv.url, 'bob');
    await waitMatch(a, /You play/);
    await waitMatch(b, /You play|Your move/);
    await Promise.race([waitStatus(a, /^Your move/), waitStatus(b, /^Your move/)]);
    const first = (await myTurn(a)) ? a : b;
    const second = first === a ? b : a;
    if (await a.isVisible('#again-row') || !(await a.isVisible('#resign')))
      throw new Error('during a game: Play again? shown, or Resign not');
    for (const [p, c] of [[first, 'A1'], [second, 'A2'], [first, 'B1'],
      [second, 'B2'], [first, 'C1']]) {
      await waitStatus(p, /^Your move/);
      await click(p, c);
    }
    // Each page speaks to its player, in sentences that begin with a
    // capital: "You win!" to the winner, "ann wins." to the other.
    const winner = first === a ? 'ann' : 'bob';
    await waitStatus(first, /^You win!$/);
    await waitStatus(second, new RegExp(`^${winner} wins\\.$`));
    for (const p of [a, b]) {
      const wins = await p.locator('#board button.win').count();
      if (wins !== 3) throw new Error(`${wins} cells of the winning line marked`);
      await p.waitForFunction(() => /^Score: /.test(
        document.getElementById('score').textContent), null, { timeout: STEP_MS });
      await p.waitForSelector('#again-row:not([hidden])', { timeout: STEP_MS });
      // The winning line is marked, and the cells' names stay readable.
      await assertLabelsClear(p, ['A1', 'B1', 'C1']);
    }
    // announce() empties the live region and fills it 50 ms later (so a
    // screen reader hears a repeat), the move's words before the result's:
    // wait for the result in it.
    const said = await a.waitForFunction(() => /^(You win!|bob wins\.|Play again\?)$/.test(
      document.getElementById('announce').textContent), null,
    { timeout: STEP_MS }).then(() => true, () => false);
    if (!said) throw new Error(`aria-live said "${await a.textContent('#announce')}"`);
    await a.screenshot({ path: path.join(shotDir, 'two-pages-win.png') });
    await b.screenshot({ path: path.join(shotDir, 'two-pages-loss.png') });
  } finally {
    await srv.stop();
  }
}

// A page and an nc player meet in one match; the page wins or loses.
async function testPageAgainstNc(browser) {
  const srv = await startTttd();
  try {
    const nc = new NcPlayer(srv.game);
    await nc.want('WAIT ');
    nc.send('NAME carl');
    const page = await openPage(browser, srv.url, 'pia');
    const m = await nc.want('MATCH ');
    if (!/MATCH [XO] pia /.test(m.line)) throw new Error(`nc got "${m.line}"`);
    await waitMatch(page, /You play [XO] against carl/);
    // The nc player plays column A, the page column C, whoever starts.
    const r = await playOut(page, nc, ['C1', 'C2', 'C3'], ['A1', 'A2', 'A3']);
    const pageWon = / pia wins!/.test(r);
    await waitStatus(page, pageWon ? /^You win!$/ : /^carl wins\.$/);
    await page.screenshot({ path: path.join(shotDir, 'page-vs-nc.png') });
    nc.close();
  } finally {
    await srv.stop();
  }
}

// On a touch screen the page says "tap", and asks for no typing.
async function testTapOnTouchScreen(browser) {
  const srv = await startTttd();
  try {
    const nc = new NcPlayer(srv.game);
    nc.send('NAME carl');
    await nc.want('OK NAME');
    const page = await openPage(browser, srv.url, 'tia', TOUCH);
    await waitMatch(page, /You play [XO] against carl/);
    const t = await Promise.race([
      waitStatus(page, /^Your move/).then(() => 'page'),
      nc.want('TURN ').then((l) => (/Enter your move/.test(l.line) ? 'nc' : 'page')),
    ]);
    if (t === 'nc') { nc.send('A3'); await nc.want('OK MOVE'); }
    await waitStatus(page, /^Your move/);
    const said = await page.textContent('#status');
    if (!/^Your move \([XO]\): tap a cell\.$/.test(said))
      throw new Error(`a touch screen is told "${said}"`);
    await cell(page, 'B2').tap();
    await nc.want('BOARD ');
    await page.screenshot({ path: path.join(shotDir, 'touch-tap.png') });
    nc.close();
  } finally {
    await srv.stop();
  }
}

// The last move is marked, as ttt-client marks it: one cell, the one just
// played, in its look and its label.  The page wins on the diagonal
// A1-C3, whose line leaves the cells' names readable.
async function testLastMove(browser) {
  const srv = await startTttd();
  try {
    const nc = new NcPlayer(srv.game);
    nc.send('NAME carl');
    await nc.want('OK NAME');
    const page = await openPage(browser, srv.url, 'lea');
    await waitMatch(page, /You play [XO] against carl/);
    let checked = 0;
    const r = await playOut(page, nc, ['A1', 'B2', 'C3'], ['B1', 'A3', 'C1'],
      async (who, c) => {
        if (nc.lines.some((l) => l.startsWith('RESULT'))) return;
        const last = await lastCells(page);
        if (last.length !== 1 || !last[0].startsWith(`${c},`)
            || !last[0].endsWith(', last move'))
          throw new Error(`after ${who} played ${c} the last move is ${JSON.stringify(last)}`);
        if (checked++ === 1)
          await page.screenshot({ path: path.join(shotDir, 'last-move.png') });
      });
    if (!/ lea wins!/.test(r)) throw new Error(`nc got "${r}"`);
    if (checked < 3) throw new Error(`only ${checked} moves checked`);
    await waitStatus(page, /^You win!$/);
    await page.waitForSelector('#again-row:not([hidden])', { timeout: STEP_MS });
    await assertLabelsClear(page, ['A1', 'B2', 'C3']);
    await page.screenshot({ path: path.join(shotDir, 'diagonal-win.png') });
    // A new game starts with no last move.
    nc.send('y');
    await page.click('#again-yes');
    await nc.want('START ');
    await page.waitForFunction(() => [...document.querySelectorAll('#board button')]
      .every((b) => b.getAttribute('aria-label').endsWith('empty')), null,
    { timeout: STEP_MS });
    const last = await lastCells(page);
    if (last.length) throw new Error(`a new game with a last move: ${last}`);
    nc.close();
  } finally {
    await srv.stop();
  }
}

// The opponent leaves after a game: the status line says so, and Play
// again? gives way to finding another opponent.
async function testOpponentLeavesAfterGame(browser) {
  const srv = await startTttd();
  try {
    const nc = new NcPlayer(srv.game);
    nc.send('NAME ncbob');
    await nc.want('OK NAME');
    const page = await openPage(browser, srv.url, 'ola');
    await waitMatch(page, /You play [XO] against ncbob/);
    await playOut(page, nc, ['C1', 'C2', 'C3'], ['A1', 'A2', 'A3']);
    await page.waitForSelector('#again-row:not([hidden])', { timeout: STEP_MS });
    const dan = new NcPlayer(srv.game);
    dan.send('NAME dan');
    await dan.want('OK NAME');
    nc.send('QUIT');
    await nc.want('BYE ');
    await waitStatus(page, /^ncbob left the match\.$/);
    await page.waitForSelector('#again-row', { state: 'hidden', timeout: STEP_MS });
    const line = await page.textContent('#match-line');
    if (/against ncbob/.test(line)) throw new Error(`still "${line}"`);
    const said = await page.waitForFunction(() => document.getElementById(
      'announce').textContent === 'ncbob left the match.', null,
    { timeout: STEP_MS }).then(() => true, () => false);
    if (!said) throw new Error(`aria-live said "${await page.textContent('#announce')}"`);
    const again = page.getByRole('button', { name: 'Find an opponent' });
    await again.waitFor({ timeout: STEP_MS });
    await page.screenshot({ path: path.join(shotDir, 'opponent-left.png') });
    await again.click();
    await waitMatch(page, /You play [XO] against dan/);
    await dan.want('MATCH ');
    dan.close();
    nc.close();
  } finally {
    await srv.stop();
  }
}

// The page asks for a name before it joins the queue: a player waiting
// is not paired with it while its player types, and then meets it by its
// name (no p2, no rename).  The name is kept for the next visit, which
// joins at once; a name taken is asked again, unpaired.
async function testNameFirst(browser) {
  const srv = await startTttd();
  try {
    const nc = new NcPlayer(srv.game);
    nc.send('NAME ncbob');
    await nc.want('OK NAME');
    const page = await newPage(browser, DESKTOP);
    await page.goto(srv.url);
    await page.waitForSelector('#join-form:not([hidden])', { timeout: STEP_MS });
    const focused = await page.evaluate(() => document.activeElement.id);
    if (focused !== 'join-name') throw new Error(`the focus is on "${focused}"`);
    await page.screenshot({ path: path.join(shotDir, 'name-first.png') });
    await sleep(900);			// a player typing
    if (nc.lines.some((l) => l.startsWith('MATCH ')))
      throw new Error('paired before the name was given');
    await page.keyboard.type('Chloé');
    await page.keyboard.press('Enter');
    const m = await nc.want('MATCH ');
    if (!/^MATCH [XO] Chloé /.test(m.line)) throw new Error(`nc got "${m.line}"`);
    await waitMatch(page, /You play [XO] against ncbob/);
    if (nc.lines.some((l) => / is now known as /.test(l)))
      throw new Error('the opponent saw a rename');
    // The next visit (the same browser) joins at once, by the same name;
    // the name is taken while the first page is open: asked again.
    const nc2 = new NcPlayer(srv.game);
    nc2.send('NAME nina');
    await nc2.want('OK NAME');
    const again = await page.context().newPage();
    again.on('pageerror', (e) => pageErrors.push(e.message));
    await again.goto(srv.url);
    await again.waitForFunction(() => /taken/.test(
      document.getElementById('join-err').textContent), null,
    { timeout: STEP_MS });
    if ((await again.inputValue('#join-name')) !== 'Chloé')
      throw new Error('the refused name is not kept in the field');
    await again.screenshot({ path: path.join(shotDir, 'name-taken.png') });
    await sleep(700);
    if (nc2.lines.some((l) => l.startsWith('MATCH ')))
      throw new Error('a page whose name was refused was paired');
    await again.fill('#join-name', 'Chloe2');
    await again.click('#join-form button');
    const m2 = await nc2.want('MATCH ');
    if (!/^MATCH [XO] Chloe2 /.test(m2.line)) throw new Error(`nc got "${m2.line}"`);
    // Left (its seat let go), and the stored name (now Chloe2) free: a
    // visit joins at once.
    await again.click('#quit');
    await waitStatus(again, /^Thank you for playing!$/);
    nc2.send('QUIT');		// back in the queue: gone too
    await nc2.want('BYE ');
    const nc3 = new NcPlayer(srv.game);
    nc3.send('NAME nils');
    await nc3.want('OK NAME');
    const third = await page.context().newPage();
    await third.goto(srv.url);
    const m3 = await nc3.want('MATCH ');
    if (!/^MATCH [XO] Chloe2 /.test(m3.line)) throw new Error(`nc got "${m3.line}"`);
    if (await third.isVisible('#join-form')) throw new Error('asked again for a stored name');
    for (const n of [nc, nc2, nc3]) n.close();
  } finally {
    await srv.stop();
  }
}

// The page's icon: linked, served (no 404 in the console), an image.
async function testFavicon(browser) {
  const srv = await startTttd();
  try {
    const page = await newPage(browser, DESKTOP);
    await page.goto(srv.url);
    const got = await page.evaluate(async () => {
      const link = document.querySelector('link[rel="icon"]');
      if (!link) return 'no <link rel="icon">';
      const r = await fetch(link.href);
      const type = r.headers.get('Content-Type');
      const img = new Image();
      img.src = link.href;
      const ok = await img.decode().then(() => img.naturalWidth, () => 0);
      return `${new URL(link.href).pathname} ${r.status} ${type} ${ok > 0}`;
    });
    if (got !== '/favicon.ico 200 image/x-icon true') throw new Error(`the icon: ${got}`);
  } finally {
    await srv.stop();
  }
}

// "Make a room": its link, opened in a second page, joins that room.
async function testRoomLink(browser) {
  const srv = await startTttd();
  try {
    const maker = await openPage(browser, srv.url, 'mia');
    await maker.click('#room-new');
    await maker.waitForSelector('#room-box:not([hidden])', { timeout: STEP_MS });
    const link = await maker.getAttribute('#room-link', 'href');
    if (!/#room=[2-9A-Z]{4}-[2-9A-Z]{4}$/.test(link)) throw new Error(`link ${link}`);
    // A stranger in the queue is not the one paired with the maker.
    const nc = new NcPlayer(srv.game);
    await nc.want('WAIT ');
    const friend = await openPage(browser, link, null);
    await waitMatch(friend, /You play [XO] against mia/);
    await waitMatch(maker, /You play [XO] against p[12]/);
    if (nc.lines.some((l) => l.startsWith('MATCH'))) throw new Error('the stranger was paired');
    await friend.screenshot({ path: path.join(shotDir, 'room-joined.png') });
    nc.close();
  } finally {
    await srv.stop();
  }
}

// A page reloaded mid-game (F5) takes its seat back with its token.
async function testReloadKeepsSeat(browser) {
  const srv = await startTttd();
  try {
    const a = await openPage(browser, srv.url, 'rae');
    const nc = new NcPlayer(srv.game);
    nc.send('NAME sol');
    await waitMatch(a, /You play [XO] against sol/);
    const mover = await Promise.race([
      waitStatus(a, /^Your move/).then(() => 'page'),
      nc.want('TURN ').then((t) => (/Enter your move/.test(t.line) ? 'nc' : 'page')),
    ]);
    if (mover === 'nc') {
      nc.send('B2');
      await nc.want('OK MOVE');
    }
    await waitStatus(a, /^Your move/);
    await click(a, 'A1');
    const before = await a.evaluate(() => [...document.querySelectorAll('#board button')]
      .map((b) => b.getAttribute('aria-label').split(', ')[1]).join(','));
    await a.reload();
    await a.waitForFunction((want) => [...document.querySelectorAll('#board button')]
      .map((b) => b.getAttribute('aria-label').split(', ')[1]).join(',') === want,
    before, { timeout: STEP_MS });
    await waitMatch(a, /against sol/);
    await nc.want('INFO rae is back.');
    if (nc.lines.some((l) => l.startsWith('RESULT'))) throw new Error('the reload lost the game');
    await a.screenshot({ path: path.join(shotDir, 'reloaded.png') });
    nc.close();
  } finally {
    await srv.stop();
  }
}

// Keyboard only: Tab into the board, arrows and Enter, or type a cell.
async function testKeyboardOnly(browser) {
  const srv = await startTttd();
  try {
    const nc = new NcPlayer(srv.game);
    await nc.want('WAIT ');
    // The name field has the focus: Enter joins without a name.
    const page = await newPage(browser);
    await page.goto(srv.url);
    await join(page, null, { keys: true });
    await waitMatch(page, /You play [XO] against p[12]/);
    const t = await Promise.race([
      waitStatus(page, /^Your move/).then(() => 'page'),
      nc.want('TURN ').then((l) => (/Enter your move/.test(l.line) ? 'nc' : 'page')),
    ]);
    if (t === 'nc') { nc.send('A3'); await nc.want('OK MOVE'); }
    await waitStatus(page, /^Your move/);
    // Typed: b then 2.
    const from = nc.lines.length;
    await page.keyboard.type('b2');
    await page.waitForFunction(() => document.querySelector(
      '#board button[aria-label^="B2,"]').getAttribute('aria-label') !== 'B2, empty',
    null, { timeout: STEP_MS });
    const mine = await markOf(page, 'B2');
    await nc.want('TURN ', from);
    nc.send(t === 'nc' ? 'C3' : 'A3');
    await nc.want('OK MOVE', from);
    await waitStatus(page, /^Your move/);
    // Tab to the board, then arrows from B2 (the board's tab stop) to A1.
    for (let i = 0; i < 40; i++) {
      const inBoard = await page.evaluate(() => document.activeElement
        && document.activeElement.parentElement
        && document.activeElement.parentElement.id === 'board');
      if (inBoard) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    const focused = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
    if (!focused.startsWith('A1,')) throw new Error(`focus on "${focused}", not A1`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector(
      '#board button[aria-label^="A1,"]').getAttribute('aria-label') !== 'A1, empty',
    null, { timeout: STEP_MS });
    if (await markOf(page, 'A1') !== mine) throw new Error('A1 is not the page\'s mark');
    await page.screenshot({ path: path.join(shotDir, 'keyboard.png') });
    nc.close();
  } finally {
    await srv.stop();
  }
}

// The games being played, and watching one: two nc players, a page.
async function testListAndWatch(browser) {
  const srv = await startTttd();
  try {
    const x = new NcPlayer(srv.game);
    x.send('NAME xena');
    const o = new NcPlayer(srv.game);
    o.send('NAME otto');
    await x.want('MATCH ');
    await o.want('MATCH ');
    const page = await openPage(browser, srv.url, 'vic');
    await page.click('#games-list');
    const watch = page.getByRole('button', { name: /^Watch game \d+$/ });
    await watch.waitFor({ timeout: STEP_MS });
    const item = await page.textContent('#games li');
    if (!/xena \(X\) against otto \(O\)/.test(item)) throw new Error(`listed "${item}"`);
    await watch.click();
    await waitMatch(page, /You are watching game \d+: xena \(X\) against otto \(O\)\./);
    await x.want('INFO vic is watching.');
    // Whoever moves first plays B2: the page shows it.
    const t = await x.want('TURN ');
    const mover = / Enter your move/.test(t.line) ? x : o;
    mover.send('B2');
    await page.waitForFunction(() => document.querySelector(
      '#board button[aria-label^="B2,"]').getAttribute('aria-label') !== 'B2, empty',
    null, { timeout: STEP_MS });
    const off = await cell(page, 'A1').getAttribute('aria-disabled');
    if (off !== 'true') throw new Error('a watcher\'s board is playable');
    if (await page.isVisible('#again-row') || await page.isVisible('#resign'))
      throw new Error('a watcher is offered Play again? or Resign');
    await page.screenshot({ path: path.join(shotDir, 'watching.png') });
    // The match ends: the page is told, queued nowhere, and offered a
    // game; it plays only when asked (a third nc player waits meanwhile).
    const t3 = new NcPlayer(srv.game);
    t3.send('NAME tom');
    await t3.want('WAIT ');
    x.send('QUIT');
    o.send('QUIT');
    const over = page.getByRole('button', { name: 'Find an opponent' });
    await over.waitFor({ timeout: STEP_MS });
    if (!/Game \d+ is over\./.test(await page.textContent('#log')))
      throw new Error('the page was not told the game is over');
    await new Promise((r) => setTimeout(r, 700));
    if (t3.lines.some((l) => l.startsWith('MATCH ')))
      throw new Error('the released watcher was paired unasked');
    await over.click();
    await waitMatch(page, /You play [XO] against tom/);
    await t3.want('MATCH ');
    t3.close();
    x.close();
    o.close();
  } finally {
    await srv.stop();
  }
}

// A dropped connection: the page reconnects by itself and resumes.
async function testDropReconnects(browser) {
  const srv = await startTttd();
  try {
    const a = await openPage(browser, srv.url, 'dot');
    const nc = new NcPlayer(srv.game);
    nc.send('NAME eve');
    await waitMatch(a, /You play [XO] against eve/);
    await a.evaluate(() => st.ws.close());	// the network goes
    await nc.want('INFO dot lost the connection.');
    await nc.want('INFO dot is back.');
    await waitMatch(a, /You play [XO] against eve/);
    if (nc.lines.some((l) => l.startsWith('RESULT'))) throw new Error('the drop lost the game');
    nc.close();
  } finally {
    await srv.stop();
  }
}

// A redis-server of the test's own on a free loopback port (a cluster).
async function startRedis() {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind',
    '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await connectable(port);
  return { addr: `127.0.0.1:${port}`, stop: () => proc.kill('SIGKILL') };
}

// The page's node is drained for an upgrade (SIGUSR2): BYE "Server
// restarting", and the page comes back by itself to the upgraded node on
// the same address, takes its seat back, and the game goes on.
async function testDrainReconnects(browser) {
  const redis = await startRedis();
  const cl = (n) => ['--redis', redis.addr, '--node', n];
  const a = await startTttd(cl('a'));
  let b = await startTttd(cl('b'));
  try {
    await sleep(1500);				// both in the cluster
    const page = await openPage(browser, b.url, 'dot');
    const nc = new NcPlayer(a.game);
    nc.send('NAME eve');
    await waitMatch(page, /You play [XO] against eve/);
    b.kill('SIGUSR2');
    const code = await Promise.race([b.exited(), sleep(STEP_MS).then(() => 'timeout')]);
    if (code !== 0) throw new Error(`the drained node exited with ${code}`);
    b = await startTttd(cl('b'), { game: b.game, http: b.http });
    await nc.want('INFO dot is back.');
    await waitMatch(page, /You play [XO] against eve/);
    if (nc.lines.some((l) => l.startsWith('RESULT'))) throw new Error('the drain lost the game');
    nc.close();
  } finally {
    try {
      await b.stop().catch(() => {});
      await a.stop();
    } finally {
      redis.stop();
    }
  }
}

// Accounts on the page (issue 25): register after choosing a name, the
// key shown and kept, sign out, sign in again with the key; a rated game
// against an nc player signed in too; the ratings beside the names, the
// leaderboard (/api/top) and a history (/api/player/<name>/games).  The
// database has one established account (dave), written between two runs
// as years of games would.
async function testAccounts(browser) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tttd-browser-'));
  const db = path.join(dir, 't.db');
  let srv = await startTttd(['--db', db]);
  await srv.stop();
  execFileSync('sqlite3', [db, 'INSERT INTO accounts (name, fold, key_hash,'
    + ' rating, rd, volatility, last_game, games, wins, losses, ties, created)'
    + " VALUES ('dave', 'dave', x'02', 1720.6, 50.0, 0.06, unixepoch(), 90,"
    + ' 60, 20, 10, 1)']);
  srv = await startTttd(['--db', db]);
  const text = (page, sel) => page.evaluate((s) =>
    document.querySelector(s).textContent, sel);
  const waitText = (page, sel, re) => page.waitForFunction(([s, src]) =>
    new RegExp(src).test(document.querySelector(s).textContent),
  [sel, re.source], { timeout: STEP_MS });
  try {
    const page = await newPage(browser);
    await page.goto(srv.url);
    await join(page, 'alice');
    await page.waitForSelector('#account:not([hidden])', { timeout: STEP_MS });
    await page.click('#acct-register');
    await waitText(page, '#acct-key-text', /^[a-z2-7]{26}$/);
    const key = await text(page, '#acct-key-text');
    if (await page.evaluate(() => localStorage.getItem('tttd.key')) !== key)
      throw new Error('the key is not kept in localStorage');
    await waitText(page, '#acct-status', /^Signed in as alice\.$/);
    // Signed out: the key forgotten, a name asked for again.
    await page.click('#acct-sign-out');
    await page.waitForSelector('#join-login:not([hidden])', { timeout: STEP_MS });
    if (await page.evaluate(() => localStorage.getItem('tttd.key')) !== null)
      throw new Error('the key is still kept after signing out');
    // Signed in again with the key, as on another device.
    await page.fill('#join-key', key);
    await page.click('#join-login button');
    await waitText(page, '#acct-status', /^Signed in as alice/);
    await waitText(page, '#log', /Signed in as alice\./);
    await page.click('#acct-show-key');
    await waitText(page, '#acct-key-text', new RegExp(`^${key}$`));
    if (!(await page.isVisible('#acct-key'))) throw new Error('key not shown');
    // A rated game against a signed-in nc player.
    const nc = new NcPlayer(srv.game);
    await nc.want('WAIT ');
    nc.send('NAME bob');
    nc.send('REGISTER');
    await nc.want('KEY ');
    await waitMatch(page, /You play [XO] against bob/);
    const r = await playOut(page, nc, ['C1', 'C2', 'C3'], ['A1', 'A2', 'A3']);
    const pageWon = / alice wins!/.test(r);
    await nc.want('INFO Your rating: ');
    const mine = pageWon ? '1741?' : '1259?';
    const theirs = pageWon ? '1259?' : '1741?';
    await page.waitForFunction(([a, b]) => {
      const got = ['X', 'O'].map((m) => [
        document.getElementById(`name-${m}`).textContent,
        document.getElementById(`rating-${m}`).textContent]);
      return got.some(([n, v]) => n === 'alice' && v === a)
        && got.some(([n, v]) => n === 'bob' && v === b);
    }, [mine, theirs], { timeout: STEP_MS });
    await waitText(page, '#acct-status', new RegExp(
      `^Signed in as alice \\(rating ${mine.replace('?', '\\?')}\\)\\.$`));
    // The leaderboard: dave alone (both new accounts are provisional).
    await page.click('#top-load');
    await waitText(page, '#top', /^dave 1721 \(RD 50, 90 games\)$/);
    // alice's history: the game, its moves and both ratings.
    await page.fill('#hist-name', 'ALICE');
    await page.click('#hist-form button');
    await waitText(page, '#hist-title', /^alice's last rated games, newest first:$/);
    const game = await text(page, '#hist li');
    const [x, o] = (pageWon === /^RESULT WIN X /.test(r)) ? ['alice', 'bob'] : ['bob', 'alice'];
    const winner = pageWon ? 'alice' : 'bob';
    const rx = (n) => (n === winner ? '1500 to 1741 \\(\\+241\\)' : '1500 to 1259 \\(-241\\)');
    const want = new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC: ${x} \\(X\\) `
      + `against ${o} \\(O\\), ${winner} won; moves [ABC][123]( [ABC][123]){4}\\. `
      + `${x} ${rx(x)}, ${o} ${rx(o)}\\.$`);
    if (!want.test(game)) throw new Error(`history: "${game}", not ${want}`);
    if (await page.locator('#hist li').count() !== 1) throw new Error('not one game');
    // A name on the leaderboard shows its games: dave has none.
    await page.click('#top button');
    await waitText(page, '#hist-title', /^dave has played no rated game yet\.$/);
    await page.screenshot({ path: path.join(shotDir, 'accounts.png'), fullPage: true });
    nc.close();
  } finally {
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// A self-signed certificate for localhost made by openssl in a new
// folder, and HAProxy from docker/haproxy.cfg with TLS on in front of one
// tttd (its three servers all that one): the https frontend's port.
async function startHaproxyTls(srv) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tttd-browser-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes',
    '-days', '2', '-subj', '/CN=localhost', '-addext',
    'subjectAltName=DNS:localhost', '-keyout', path.join(dir, 'key.pem'),
    '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  writeFileSync(path.join(dir, 'tttd.pem'),
    readFileSync(path.join(dir, 'cert.pem')) + readFileSync(path.join(dir, 'key.pem')));
  const ports = {};
  for (const k of ['game', 'http', 'tls', 'https']) ports[k] = await freePort();
  const at = (p) => `127.0.0.1:${p}`;
  const env = { ...process.env, TTTD_LB_BIND: at(ports.game),
    TTTD_LB_HTTP_BIND: at(ports.http), TTTD_LB_TLS_BIND: at(ports.tls),
    TTTD_LB_HTTPS_BIND: at(ports.https), TTTD_LB_MAXCONN: '1000',
    TTTD_LB_CERT: path.join(dir, 'tttd.pem') };
  for (const i of [1, 2, 3]) {
    env[`TTTD_NODE${i}`] = at(srv.game);
    env[`TTTD_NODE${i}_HTTP`] = at(srv.http);
  }
  const proc = spawn(haproxyPath, ['-db', '-f', haproxyCfg],
    { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  const stop = () => {
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await connectable(ports.https);
  } catch (e) {
    stop();
    throw new Error(`HAProxy serves no https: ${e.message}; its log:\n${log}`);
  }
  return { ...ports, ca: path.join(dir, 'cert.pem'), stop };
}

// ttt-client with args, its moves written to it one at a time as it asks:
// the number of move prompts in its output so far, its output, its end.
function startClient(args) {
  const proc = spawn(tttClient, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const c = { out: '', err: '', proc };
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (d) => { c.out += d; });
  proc.stderr.on('data', (d) => { c.err += d; });
  c.exited = new Promise((resolve) => proc.on('exit', (code, sig) =>
    resolve(sig ? `signal ${sig}` : code)));
  c.prompts = () => c.out.split('Enter your move (A1, B2, C3)').length - 1;
  c.want = async (text) => {
    for (let t = 0; t < STEP_MS; t += 50) {
      if (c.out.includes(text)) return;
      await sleep(50);
    }
    throw new Error(`ttt-client: no "${text}" in:\n${c.out}\nstderr:\n${c.err}`);
  };
  return c;
}

// The page over https (issue 26), through HAProxy's TLS frontend, plays a
// whole game against ttt-client --tls on the TLS game frontend: the page
// opens wss:// on its own host and port; the client checks the test's
// certificate (--cafile) for localhost.  Each plays its column, whoever
// is X wins; the client then says no and ends with status 0.
async function testHttpsPageAgainstTlsClient(browser) {
  if (!tttClient || !existsSync(tttClient) || !existsSync(haproxyPath)) {
    console.log('ttt-client or haproxy missing: testHttpsPageAgainstTlsClient skipped');
    return;
  }
  const srv = await startTttd(['--proxy-from', '127.0.0.1/32']);
  let lb;
  try {
    lb = await startHaproxyTls(srv);
    const cl = startClient(['--tls', '--cafile', lb.ca, '--name', 'tom',
      'localhost', String(lb.tls)]);
    await cl.want('Waiting for an opponent');
    const page = await openPage(browser, `https://localhost:${lb.https}/`,
      'pip', { ...PHONE, ignoreHTTPSErrors: true });
    const wsUrl = await page.evaluate(() => st.ws.url);
    if (wsUrl !== `wss://localhost:${lb.https}/ws`)
      throw new Error(`the page over https opened ${wsUrl}`);
    await waitMatch(page, /You play [XO] against tom/);
    await cl.want('playing against pip.');
    const pageX = /You play X/.test(await page.textContent('#match-line'));
    const mine = ['C1', 'C2', 'C3'];
    const theirs = ['A1', 'A2', 'A3'];
    let asked = 0;
    while (!/wins/.test(await page.textContent('#status'))) {
      if (cl.prompts() > asked) {
        cl.proc.stdin.write(`${theirs[asked++]}\n`);
      } else if (await myTurn(page)) {
        await click(page, mine.shift());
      } else {
        await sleep(50);
      }
    }
    await waitStatus(page, pageX ? /^You win!$/ : /^tom wins\.$/);
    await cl.want(pageX ? 'pip wins! better luck next time tom!'
      : 'tom wins! better luck next time pip!');
    await cl.want('Play again?');
    cl.proc.stdin.end('n\n');
    const code = await Promise.race([cl.exited, sleep(STEP_MS).then(() => 'timeout')]);
    if (code !== 0) throw new Error(`ttt-client exited with ${code}: ${cl.err}`);
    if (!cl.out.includes('Thank you for playing!') || cl.err !== '')
      throw new Error(`ttt-client printed:\n${cl.out}\nstderr:\n${cl.err}`);
    await page.screenshot({ path: path.join(shotDir, 'https-vs-tls-client.png') });
  } finally {
    if (lb) lb.stop();
    await srv.stop();
  }
}

const tests = [testTwoPagesPlayToAWin, testPageAgainstNc,
  testTapOnTouchScreen, testLastMove, testOpponentLeavesAfterGame,
  testNameFirst, testFavicon, testRoomLink,
  testReloadKeepsSeat, testKeyboardOnly, testListAndWatch,
  testDropReconnects, testDrainReconnects, testAccounts,
  testHttpsPageAgainstTlsClient];
// BROWSER_TEST=pattern runs only the tests whose names match it.
const only = process.env.BROWSER_TEST ? new RegExp(process.env.BROWSER_TEST) : null;
const run = tests.filter((t) => !only || only.test(t.name));
const browser = await chromium.launch({ executablePath: chromiumPath,
  headless: true, args: ['--no-sandbox'] });
let failed = 0;
for (const t of run) {
  const t0 = Date.now();
  try {
    await Promise.race([t(browser), sleep(TEST_MS).then(() => {
      throw new Error(`over ${TEST_MS} ms`);
    })]);
    if (pageErrors.length) throw new Error(`page errors: ${pageErrors.splice(0).join('; ')}`);
    console.log(`ok ${t.name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}: ${e.stack || e}`);
  }
}
await browser.close();
console.log(`${run.length - failed}/${run.length} passed; screenshots in ${shotDir}`);
process.exit(failed ? 1 : 0);
