// `npm test`'s first step (tsx tests/requirements-setup.ts): it provisions what is missing where it can,
// and where it cannot it stops at once with one line that says why and what to run; an opted-out
// requirement is neither provisioned nor checked.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function setup(env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LOTS_SKIP_')));
  return spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'tests', 'requirements-setup.ts')], {
    cwd: ROOT,
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm test provisioning (tests/requirements-setup.ts)', () => {
  it('stops with what to do when a requirement cannot be provisioned here', () => {
    const run = setup({ LOTS_CHROMIUM: '/nonexistent/chromium', LOTS_SKIP_REAL_MODEL: '1', LOTS_SKIP_SCORING_SERVER: '1' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Chromium was not found at /nonexistent/chromium');
    expect(run.stderr).toContain('npm test cannot get it by itself here: LOTS_CHROMIUM names /nonexistent/chromium, which does not exist');
    expect(run.stdout).not.toContain('installing');
  });

  it('a server path set by hand is never built over', () => {
    const run = setup({ LOTS_LLAMA_SERVER: '/nonexistent/llama-server', LOTS_SKIP_E2E: '1', LOTS_SKIP_REAL_MODEL: '1' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('LOTS_LLAMA_SERVER names /nonexistent/llama-server');
    expect(run.stdout).not.toContain('building');
  });

  it('opted-out requirements are neither provisioned nor required', () => {
    const run = setup({
      LOTS_CHROMIUM: '/nonexistent/chromium',
      LOTS_LLAMA_SERVER: '/nonexistent/llama-server',
      LOTS_MODELS_DIR: join(ROOT, 'tests', 'fixtures', 'no-such-models-dir'),
      LOTS_SKIP_E2E: '1',
      LOTS_SKIP_REAL_MODEL: '1',
      LOTS_SKIP_SCORING_SERVER: '1',
      LOTS_SKIP_VLLM: '1',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });
});
