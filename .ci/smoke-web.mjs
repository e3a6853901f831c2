#!/usr/bin/env node
// CI's newcomer smoke test: run the README's "Run it" command exactly as the README writes it (read from
// README.md, so the two stay in step), wait for the printed URL, open it in headless Chromium, check that
// the Project view renders with no console errors, then press Ctrl+C (SIGINT to the process group, as a
// terminal does) and check that lots ui exits cleanly within a few seconds, leaving no process behind.
// Linux (it watches the lots ui process through /proc). Run from the repository root: node .ci/smoke-web.mjs
// Env: LOTS_CHROMIUM (default /usr/bin/chromium), SMOKE_TIMEOUT_S (startup, default 240).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.LOTS_CHROMIUM || '/usr/bin/chromium';
const STARTUP_MS = Number(process.env.SMOKE_TIMEOUT_S || 240) * 1000;
const EXIT_MS = 10_000;
const SHOT = join('artifacts', 'smoke', 'web.png');

function fail(message) {
  console.error(`smoke: FAILED: ${message}`);
  process.exit(1);
}

/** The README's web command: in "## Run it", the first sh block's line running `npm run web`, minus its comment. */
function readmeCommand() {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Run it\n'));
  if (!section) fail('README.md has no "## Run it" section');
  const block = section.match(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/m);
  if (!block) fail('README.md\'s "Run it" section has no ```sh code block');
  const line = block[1]
    .split('\n')
    .map((l) => l.replace(/\s#.*$/, '').trim())
    .find((l) => /^npm run web\b/.test(l));
  if (!line) fail('README.md\'s "Run it" code block has no `npm run web …` line');
  return line;
}

const command = readmeCommand();
console.log(`smoke: running the README's command: ${command}`);
// A shell, as in a terminal; its own process group (detached), so SIGINT reaches npm, sh and node as Ctrl+C does.
const child = spawn(command, {
  shell: true,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, LOTS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'lots-smoke-config-')) },
});
let out = '';
let err = '';
child.stdout.on('data', (d) => {
  out += d;
  process.stdout.write(d);
});
child.stderr.on('data', (d) => {
  err += d;
  process.stderr.write(d);
});
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
const killGroup = () => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

let started = false;
const openUrl = await new Promise((resolve) => {
  const timer = setTimeout(() => {
    killGroup();
    fail(`no "Open: <url>" line within ${STARTUP_MS / 1000} s`);
  }, STARTUP_MS);
  const look = () => {
    const m = out.match(/^Open: (http:\/\/\S+\?token=\S+)$/m);
    if (m && !started) {
      started = true;
      clearTimeout(timer);
      resolve(m[1]);
    }
  };
  child.stdout.on('data', look);
  void exited.then(({ code, signal }) => {
    if (!started) fail(`\`${command}\` exited (${code ?? signal}) before printing the URL`);
  });
});

const problems = [];
let browser;
try {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url().replace(/token=[^&]+/, 'token=…')}`);
  });
  await page.goto(openUrl);
  await page.waitForSelector('[data-testid="view-home"] h1', { timeout: 30_000 });
  await page.waitForSelector('nav [data-view="home"]', { timeout: 10_000 });
  await page.waitForTimeout(500); // late console errors
  mkdirSync(join('artifacts', 'smoke'), { recursive: true });
  await page.screenshot({ path: SHOT });
  const heading = (await page.textContent('[data-testid="view-home"] h1'))?.trim();
  console.log(`smoke: the Project view rendered ("${heading}"); screenshot ${SHOT}`);
} catch (e) {
  problems.push(`the Project view did not render: ${e instanceof Error ? e.message : e}`);
}
if (problems.length) {
  await browser?.close();
  killGroup();
  fail(problems.join('\n  '));
}

// Ctrl+C with the page still open (its event socket too). Under `npm run web` the terminal's SIGINT reaches
// npm, the `sh -c` npm runs the script with, and node. Debian's sh (dash) dies of it at once and npm then
// re-raises it on itself, so npm's status says nothing about lots ui (0 with a shell that waits, such as
// bash; SIGINT with dash) and npm may be gone before lots ui has finished. So the lots ui process itself
// is watched: it must be gone within a few seconds, having printed its clean-exit line ("lots ui: stopped.",
// printed just before it returns 0) with nothing after it (an error would print there).
const lotsPid = findLotsUi(child.pid);
if (!lotsPid) {
  killGroup();
  fail("could not find the lots ui process (node bin/lots.mjs ui) in the command's process group");
}
process.kill(-child.pid, 'SIGINT');
const deadline = Date.now() + EXIT_MS;
let lotsExit;
while ((lotsExit = exitOf(lotsPid)) === 'running' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
const npmResult = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now())))]);
await browser.close();
if (lotsExit === 'running') {
  killGroup();
  fail(`lots ui was still running ${EXIT_MS / 1000} s after Ctrl+C`);
}
if (npmResult === 'timeout') {
  killGroup();
  fail(`\`${command}\` was still running ${EXIT_MS / 1000} s after Ctrl+C`);
}
if (!(npmResult.code === 0 || npmResult.signal === 'SIGINT' || npmResult.code === 130))
  fail(`\`${command}\` ended with ${npmResult.code ?? npmResult.signal} after Ctrl+C (expected 0, or SIGINT as npm passes Ctrl+C on)`);
await Promise.race([new Promise((resolve) => child.stderr.once('close', resolve)), new Promise((resolve) => setTimeout(resolve, 2000))]);
const tail = err.trimEnd().split('\n').at(-1);
if (tail !== 'lots ui: stopped.') fail(`lots ui did not shut down cleanly: its last line was "${tail}" (expected "lots ui: stopped.")`);
if (typeof lotsExit === 'number' && lotsExit !== 0) fail(`lots ui exited with ${lotsExit}`);
try {
  process.kill(-child.pid, 0);
  killGroup();
  fail('processes of the command were still running after it exited');
} catch {
  // the whole process group is gone
}
console.log(
  `smoke: \`${command}\` served the Studio; on Ctrl+C lots ui shut down cleanly (${typeof lotsExit === 'number' ? `exit ${lotsExit}` : 'gone'}) and npm ended with ${npmResult.code ?? npmResult.signal}`,
);

/** The pid of `node bin/lots.mjs ui` in process group `pgid` (Linux /proc). */
function findLotsUi(pgid) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.endsWith('bin/lots.mjs')) && argv.includes('ui')) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** 'running', the exit code of a not yet reaped process, or 'gone'. */
function exitOf(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 'gone';
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] !== 'Z') return 'running';
  // A zombie's exit status (field 52 of stat, from Linux 3.5): the wait status, code in the high byte.
  const status = Number(fields[49]);
  return Number.isFinite(status) ? (status & 0x7f ? 128 + (status & 0x7f) : status >> 8) : 'gone';
}
