// Drives the dashboard in Debian's Chromium (never a downloaded browser) through the team's main flow:
// overview → filter the race table → open a race → mark it trusted-benign → see the state change → the workers page.
// Usage: node dashboard-flow.mjs BASE_URL SCREENSHOT_DIR [TOKEN]. Prints one JSON line of findings; exit 1 on failure.
import {chromium} from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [baseUrl, shotsDir, token] = process.argv.slice(2);
if (!baseUrl || !shotsDir) {
  console.error('usage: node dashboard-flow.mjs BASE_URL SCREENSHOT_DIR [TOKEN]');
  process.exit(2);
}
const executablePath = process.env.RACETRIAGE_CHROMIUM || '/usr/bin/chromium';
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'racetriage-chromium-'));
fs.mkdirSync(shotsDir, {recursive: true});

const findings = {dialogs: [], pageErrors: [], consoleErrors: [], steps: []};
const TIMEOUT = 20_000;

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  viewport: {width: 1400, height: 1000},
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = null;
try {
  const page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  // An XSS payload that ran would open a dialog or throw; collect both, and every console error (CSP violations).
  // A dialog the flow expects (the confirmation before overriding a destructive verdict) goes to expectDialog instead.
  let expectDialog = null;
  page.on('dialog', async dialog => {
    if (expectDialog) {
      const handle = expectDialog;
      expectDialog = null;
      await handle(dialog);
      return;
    }
    findings.dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  page.on('pageerror', error => findings.pageErrors.push(String(error)));
  page.on('console', message => {
    if (message.type() === 'error') findings.consoleErrors.push(message.text() + ' @ ' + message.location().url);
  });

  // 1. Overview (logging in with ?token= once when the dashboard has a token).
  await page.goto(baseUrl + (token ? '?token=' + encodeURIComponent(token) : ''));
  check(!page.url().includes('token='), 'the token must not stay in the address bar: ' + page.url());
  await page.locator('#counts .card.verdict-destructive .count').waitFor();
  const destructive = await page.locator('#counts .card.verdict-destructive .count').textContent();
  check(destructive === '1', 'overview shows ' + destructive + ' destructive races, expected 1');
  await page.locator('#live.on').waitFor();
  await page.screenshot({path: path.join(shotsDir, '1-overview.png'), fullPage: true});
  findings.steps.push('overview');

  // 2. Race table: filter by verdict.
  await page.click('nav a[href="/races"]');
  await page.locator('#rows tr').first().waitFor();
  await page.selectOption('#f-verdict', 'destructive');
  await page.waitForFunction(() => {
    const rows = document.querySelectorAll('#rows tr[data-id]');
    return rows.length === 1 && rows[0].dataset.id === 'com.example.Cache.hash';
  });
  check(new URL(page.url()).searchParams.get('verdict') === 'destructive', 'the filter is in the URL');
  await page.screenshot({path: path.join(shotsDir, '2-races-filtered.png'), fullPage: true});
  findings.steps.push('filter');

  // 3. The race page: evidence shown, the payload inert text.
  await page.click('#rows a');
  await page.locator('#field').filter({hasText: 'com.example.Cache.hash'}).waitFor();
  await page.locator('#heuristics tr').nth(1).waitFor();
  const failure = await page.locator('#failure').textContent();
  check(failure.includes("<script>alert(1)</script>"), 'the failure shows the payload as text: ' + failure);
  check(failure.includes("<img src=x onerror=alert('xss')>"), 'the <img> payload shows as text');
  const injected = await page.evaluate(() => document.querySelectorAll('main img, main script').length);
  check(injected === 0, 'the payload created ' + injected + ' elements');
  const sourceLine = await page.locator('.source .line.focus code').first().textContent();
  check(sourceLine.includes('hash = h;'), 'the write access shows its source line, got ' + sourceLine);
  check(await page.locator('#rate-chart').evaluate(c => c.width > 0), 'the observation-rate chart is drawn');
  const durationPoints = await page.evaluate(() => window.Chart.getChart('duration-chart').data.datasets[1].data.length);
  check(durationPoints === 8, 'the duration chart shows every trial, got ' + durationPoints);
  check((await page.locator('#state').textContent()) === 'open', 'the race starts open');
  check(await page.locator('#candidate-section').isVisible(), 'the static prefilter finding is shown');
  await page.screenshot({path: path.join(shotsDir, '3-race.png'), fullPage: true});
  findings.steps.push('race');

  // 4. Mark it trusted-benign and see the state change.
  await page.fill('#note', 'hash is recomputed idempotently; a stale 0 only costs time');
  await page.fill('#author', 'browser-test');
  // the race is destructive: the page asks for a confirmation that names the evidence
  let confirmation = '';
  expectDialog = async dialog => { confirmation = dialog.message(); await dialog.accept(); };
  await page.click('#mark-benign');
  await page.locator('#state').filter({hasText: 'trusted-benign'}).waitFor();
  check(confirmation.includes('is destructive') && confirmation.includes('overrides this evidence'),
    'marking a destructive race asks first: ' + confirmation);
  await page.locator('#audit li').filter({hasText: 'mark-overriding-destructive'}).waitFor();
  check(await page.locator('#mark-benign').isDisabled(), 'mark button disabled once marked');
  await page.screenshot({path: path.join(shotsDir, '4-race-marked.png'), fullPage: true});
  findings.steps.push('mark');

  // 5. The table agrees.
  await page.goto(baseUrl + 'races?state=trusted-benign');
  await page.locator('#rows tr[data-id="com.example.Cache.hash"]').waitFor();
  findings.steps.push('table-updated');

  // 6. The workers page (no worker in this project: it says how to start one) and the trial queue.
  await page.click('nav a[href="/workers"]');
  await page.locator('#workers td').filter({hasText: 'no worker has registered'}).waitFor();
  await page.locator('#queue-counts strong').first().waitFor();
  await page.locator('#claimed td').filter({hasText: 'no unit is claimed now'}).waitFor();
  await page.screenshot({path: path.join(shotsDir, '5-workers.png'), fullPage: true});
  findings.steps.push('workers');

  check(findings.dialogs.length === 0, 'a dialog opened: ' + findings.dialogs.join(' | '));
  check(findings.pageErrors.length === 0, 'page errors: ' + findings.pageErrors.join(' | '));
  check(findings.consoleErrors.length === 0, 'console errors (CSP?): ' + findings.consoleErrors.join(' | '));
} catch (error) {
  failed = error;
  try {
    const page = context.pages()[0];
    if (page) await page.screenshot({path: path.join(shotsDir, 'failure.png'), fullPage: true});
  } catch (ignored) {
    // the browser may be gone; the error below says what happened
  }
} finally {
  await context.close();
  fs.rmSync(userDataDir, {recursive: true, force: true});
}
findings.ok = failed === null;
if (failed) findings.error = String(failed.stack || failed);
console.log(JSON.stringify(findings));
process.exit(failed ? 1 : 0);
