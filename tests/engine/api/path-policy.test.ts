// Issue 13 (rest): `lots ui --root DIR` confines every file path the API accepts to DIR. The methods and
// fields with a path are found from the input schemas (shared/api/path-fields.ts), not from a list here:
// every one of them refuses a path outside DIR, a `..` that climbs out of it, a symbolic link inside it
// that points out (to a folder, a file, or nothing yet) and accepts a path inside. Besides the inputs, the
// recent projects and models are filtered and a run's own model file and an interrupted job's are checked.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiInputSchemas, type ApiMethodName } from '../../../shared/api/schemas';
import { filePath, pathFieldsOf, plainStringFieldsOf } from '../../../shared/api/path-fields';
import { ERROR_HINTS } from '../../../shared/api/errors';
import { dispatch, StudioService } from '../../../electron/engine/api';
import { PathPolicy, realPathOf } from '../../../electron/engine/api/path-policy';
import { ProjectStore, type JobState } from '../../../electron/engine/store';
import { RecentProjects } from '../../../electron/engine/user-data/recent';
import { scoreKey } from '../../../electron/engine/scoring/keys';
import { makeLineTraces, makeScoreRows, toJsonl } from '../../e2e/fixtures';

let base: string;
let root: string;
let outside: string;
let config: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'lots-root-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  config = join(base, 'config');
  for (const d of [root, outside, config]) mkdirSync(d);
  writeFileSync(join(outside, 'secret.jsonl'), 'secret\n');
  writeFileSync(join(outside, 'model.gguf'), 'GGUF');
  symlinkSync(outside, join(root, 'link-dir'));
  symlinkSync(join(outside, 'secret.jsonl'), join(root, 'link-file.jsonl'));
  symlinkSync(join(outside, 'not-yet.txt'), join(root, 'dangling.txt'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const services: StudioService[] = [];
afterEach(() => {
  for (const s of services.splice(0)) s.dispose();
});

function confined(): StudioService {
  const s = new StudioService({ transport: 'web', configDir: config, quietWorkers: true, root });
  services.push(s);
  return s;
}

/** Every method whose input has a path field, and those fields, from the schemas. */
const PATH_METHODS = (Object.keys(apiInputSchemas) as ApiMethodName[])
  .map((method) => ({ method, fields: pathFieldsOf(apiInputSchemas[method] as z.ZodType) }))
  .filter((m) => m.fields.length > 0);

/**
 * A valid input of `schema` with every path field set to `pathFor(field)`: required fields get the least
 * value their schema takes, optional ones are left out unless they hold a path.
 */
function sampleInput(schema: z.ZodType, pathFor: (field: string) => string, at = ''): unknown {
  if (schema === filePath) return pathFor(at);
  const def = (schema as unknown as { def: Record<string, unknown> & { type: string } }).def;
  switch (def.type) {
    case 'string':
      return 'x';
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries as Record<string, string>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'optional':
    case 'default':
      return pathFieldsOf(def.innerType as z.ZodType).length > 0 ? sampleInput(def.innerType as z.ZodType, pathFor, at) : undefined;
    case 'array':
      return [sampleInput(def.element as z.ZodType, pathFor, `${at}[]`)];
    case 'union':
      return sampleInput((def.options as z.ZodType[])[0]!, pathFor, at);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const value = sampleInput(field, pathFor, at ? `${at}.${key}` : key);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    default:
      throw new Error(`sampleInput: teach this test about zod "${def.type}" (${at})`);
  }
}

describe('the path fields of the API', () => {
  it('are found from the schemas, and no string field named like a path escapes them', () => {
    const found = Object.fromEntries(PATH_METHODS.map((m) => [m.method, m.fields]));
    // What the schemas hold today (a new path field shows up here by itself and is confined by dispatch).
    expect(found).toMatchObject({
      openProject: ['dir'],
      createProject: ['dir'],
      importTraces: ['paths[]'],
      saveExport: ['path'],
      saveReport: ['path'],
      startScoring: ['model'],
      startSweep: ['model'],
      startFaithfulness: ['model'],
      inspectModel: ['path'],
      buildDemo: ['dir'],
      exportAllSpaces: ['dir'],
    });
    const plain = (Object.keys(apiInputSchemas) as ApiMethodName[]).flatMap((m) =>
      plainStringFieldsOf(apiInputSchemas[m] as z.ZodType).map((f) => `${m}: ${f}`),
    );
    // Named like paths but not paths, each with why: the filter below must be told of every such field.
    const notPaths: Record<string, string> = {
      'checkScoringServer: servedModel': 'the name a scoring server serves its model under',
      'saveScoringServer: servedModel': 'the same settings, saved without a check',
      'startDemo: model': '"default", "reference", a model source or a file; a file is checked by the service (demoModel)',
    };
    expect(
      plain.filter(
        (f) =>
          !(f in notPaths) &&
          /(dir|path|paths|file|folder|model|gguf)$/i.test(
            f
              .split(/[.[\]: ]+/)
              .filter(Boolean)
              .at(-1)!,
          ),
      ),
    ).toEqual([]);
  });

  it('the sample inputs this test builds are valid inputs', () => {
    for (const { method } of PATH_METHODS) {
      const parsed = apiInputSchemas[method].safeParse(sampleInput(apiInputSchemas[method] as z.ZodType, () => join(root, 'x')));
      expect(parsed.success, `${method}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('each refuses, through dispatch, a path outside the root, a `..` out of it and symbolic links that point out', async () => {
    const s = confined();
    const bad: Record<string, string> = {
      outside: join(outside, 'x.jsonl'),
      'dot-dot': join(root, '..', 'outside', 'x.jsonl'),
      'relative dot-dot': join('..', 'outside', 'x.jsonl'),
      'link to a folder': join(root, 'link-dir', 'new.jsonl'),
      'link to a file': join(root, 'link-file.jsonl'),
      'dangling link': join(root, 'dangling.txt'),
    };
    let checked = 0;
    for (const { method, fields } of PATH_METHODS) {
      for (const field of fields) {
        for (const [kind, path] of Object.entries(bad)) {
          // Only this field outside; any other path field of the input inside.
          const input = sampleInput(apiInputSchemas[method] as z.ZodType, (f) => (f === field ? path : join(root, 'ok.txt')));
          const reply = await dispatch(s, method, input);
          expect(reply, `${method}.${field} (${kind})`).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
          const message = (reply as { error: { message: string } }).error.message;
          expect(message).toContain(`${method}: ${field.replace('[]', '[0]')}`);
          expect(message).toContain(`is outside ${root}`);
          checked++;
        }
      }
    }
    expect(checked).toBe(PATH_METHODS.reduce((n, m) => n + m.fields.length, 0) * Object.keys(bad).length);
    expect(existsSync(join(outside, 'not-yet.txt'))).toBe(false);
    expect(existsSync(join(outside, 'new.jsonl'))).toBe(false);
    expect(ERROR_HINTS.OUTSIDE_ROOT).toMatch(/--root/);
  });

  it('each accepts a path inside the root (relative ones from the root), resolved to its real path', () => {
    const s = confined();
    mkdirSync(join(root, 'sub'));
    symlinkSync(join(root, 'sub'), join(root, 'inner-link'));
    const good = [join(root, 'new', 'deeper', 'file.txt'), 'relative.txt', join(root, 'inner-link', 'x'), join(root, 'sub', '..', 'y'), root];
    for (const { method, fields } of PATH_METHODS) {
      for (const path of good) {
        const input = apiInputSchemas[method].parse(sampleInput(apiInputSchemas[method] as z.ZodType, () => path));
        const out = s.paths.confineInput(method, input) as Record<string, unknown>;
        for (const field of fields) {
          const key = field.replace('[]', '');
          const value = field.endsWith('[]') ? (out[key] as string[])[0]! : (out[key] as string);
          expect(value.startsWith(root), `${method}.${field} ${path} → ${value}`).toBe(true);
        }
      }
    }
    expect(s.paths.resolve(join(root, 'inner-link', 'x'), 'f')).toBe(join(root, 'sub', 'x'));
    expect(s.paths.resolve('relative.txt', 'f')).toBe(join(root, 'relative.txt'));
    // `..` is taken lexically, as everywhere in the engine (path.resolve), before links are followed: the
    // path used is the one checked, inside the root.
    expect(s.paths.resolve(join(root, 'link-dir', '..', 'x.jsonl'), 'f')).toBe(join(root, 'x.jsonl'));
  });

  it('are left alone without --root (the desktop app, `lots ui` as before)', async () => {
    const s = new StudioService({ transport: 'web', configDir: config });
    services.push(s);
    expect(s.paths.confined).toBe(false);
    const reply = await dispatch(s, 'openProject', { dir: join(outside) });
    expect(reply).toMatchObject({ ok: false, error: { code: 'PROJECT_NOT_FOUND' } });
    expect(PathPolicy.unconfined().confineInput('saveExport', { task: 't', format: 'space', path: '../x' })).toEqual({
      task: 't',
      format: 'space',
      path: '../x',
    });
  });
});

describe('a path no file call can take (issue 37 item 4)', () => {
  it('a NUL byte in any path field of any method is INVALID_INPUT naming the field, confined or not', async () => {
    const unconfined = new StudioService({ transport: 'web', configDir: config, quietWorkers: true });
    services.push(unconfined);
    for (const s of [unconfined, confined()]) {
      for (const { method, fields } of PATH_METHODS) {
        const input = sampleInput(apiInputSchemas[method] as z.ZodType, () => join(root, 'a\0b'));
        const reply = await dispatch(s, method, input);
        expect(reply, method).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('NUL byte') } });
        expect((reply as { error: { message: string } }).error.message, method).toContain(fields[0]!.replace('[]', ''));
      }
    }
    // The one plain string that may name a file (startDemo's model) too.
    expect(await dispatch(unconfined, 'startDemo', { model: `${root}/m\0.gguf` })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(existsSync(join(root, 'a'))).toBe(false);
  });
});

describe('the real path of a path that does not exist yet', () => {
  it('resolves its longest existing prefix and follows dangling links by hand', () => {
    expect(realPathOf(join(root, 'a', 'b'))).toBe(join(root, 'a', 'b'));
    expect(realPathOf(join(root, 'link-dir', 'a', 'b'))).toBe(join(outside, 'a', 'b'));
    expect(realPathOf(join(root, 'dangling.txt'))).toBe(join(outside, 'not-yet.txt'));
    symlinkSync('../outside/rel-target', join(root, 'relative-dangling'));
    expect(realPathOf(join(root, 'relative-dangling', 'x'))).toBe(join(outside, 'rel-target', 'x'));
    symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
    symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
    expect(() => confined().paths.resolve(join(root, 'loop-a', 'x'), 'f')).toThrow();
  });
});

describe('a confined service', () => {
  it('works inside the root: create, import, export, reopen; the recent list holds only projects inside', async () => {
    new RecentProjects(config).touch(makeProject(join(outside, 'elsewhere')), 'elsewhere');
    const s = confined();
    expect(await s.listRecentProjects()).toEqual([]);
    expect(await dispatch(s, 'createProject', { dir: 'p' })).toMatchObject({ ok: true, value: { dir: join(root, 'p') } });
    writeFileSync(join(root, 'in.jsonl'), toJsonl(makeLineTraces({ task: 't', requests: 3, tools: 4 })));
    expect(await dispatch(s, 'importTraces', { paths: ['in.jsonl'] })).toMatchObject({ ok: true, value: { files: [{ added: 3 }] } });
    expect(await dispatch(s, 'importTraces', { paths: [join(root, 'link-file.jsonl')] })).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
    // Uploaded contents are not paths: they are imported (from the host's temp folder).
    expect(
      await dispatch(s, 'importTraces', { files: [{ name: '../../up.jsonl', text: toJsonl(makeLineTraces({ task: 'u', requests: 2, tools: 4 })) }] }),
    ).toMatchObject({ ok: true, value: { files: [{ added: 2 }] } });
    expect(await dispatch(s, 'acceptSpace', { task: 't', tools: ['RateLookup'], rule: { kind: 'manual' }, note: 'n' })).toMatchObject({ ok: true });
    const saved = await dispatch(s, 'saveExport', { task: 't', format: 'space', path: join(root, 'out', '..', 'space.json') });
    expect(saved, JSON.stringify(saved)).toMatchObject({ ok: true, value: { path: join(root, 'space.json') } });
    expect(JSON.parse(readFileSync(join(root, 'space.json'), 'utf8'))).toBeTruthy();
    expect(await dispatch(s, 'saveExport', { task: 't', format: 'space', path: join(root, 'dangling.txt') })).toMatchObject({
      ok: false,
      error: { code: 'OUTSIDE_ROOT' },
    });
    expect(existsSync(join(outside, 'not-yet.txt'))).toBe(false);
    expect((await s.listRecentProjects()).map((r) => r.dir)).toEqual([join(root, 'p')]);
    expect(await dispatch(s, 'openProject', { dir: join(outside, 'elsewhere') })).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
  });

  it("refuses a faithfulness check with the run's model file when that file is outside the root", async () => {
    const dir = join(root, 'scored');
    const store = ProjectStore.create(dir);
    const traces = makeLineTraces({ task: 'fx', requests: 4, tools: 5, seed: 1 });
    store.addTraces(traces, 'gen.jsonl');
    const run = 'abc123|line|answer|plain';
    store.appendScores(
      makeScoreRows(traces, run).map((r) => ({
        ...r,
        key: scoreKey(run, store.getTraceHash(r.trace)!),
        model: join(outside, 'model.gguf'),
        intervention: 'line',
        span: 'answer',
        format: 'plain',
      })),
    );
    const s = confined();
    await dispatch(s, 'openProject', { dir });
    const reply = await dispatch(s, 'startFaithfulness', { task: 'fx', ks: [1] });
    expect(reply).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/the model file the run was scored with: .*model\.gguf is outside/);
    expect(await s.listJobs()).toEqual([]);
  });

  it('refuses a demo run with a model file outside the root, and a demo folder outside it', async () => {
    const model = join(outside, 'model.gguf');
    writeFileSync(model, 'GGUF');
    const s = confined();
    const reply = await dispatch(s, 'startDemo', { model, families: ['table_total'] });
    expect(reply).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/startDemo: model: .*model\.gguf is outside/);
    expect(await dispatch(s, 'startDemo', { model: 'reference', dir: join(outside, 'demo') })).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
    expect(await s.listJobs()).toEqual([]);
  });

  it('refuses to resume an interrupted job whose model file is outside the root (dismissing it still works)', async () => {
    const dir = join(root, 'killed');
    const store = ProjectStore.create(dir);
    store.addTraces(makeLineTraces({ task: 'fx', requests: 3, tools: 4 }), 'gen.jsonl');
    const now = new Date().toISOString();
    const job: JobState = {
      id: 'score-1',
      kind: 'score',
      status: 'running',
      createdAt: now,
      updatedAt: now,
      options: { jobId: 'score-1', project: dir, model: join(outside, 'model.gguf'), intervention: 'line', span: 'answer', gpu: 'cpu' },
      progress: { done: 0, total: 3 },
      pid: 2 ** 22 + 12345,
    };
    store.writeJob(job);
    const s = confined();
    await dispatch(s, 'openProject', { dir });
    expect(await s.listJobs()).toMatchObject([{ id: 'score-1', status: 'interrupted' }]);
    expect(await dispatch(s, 'resumeJob', { id: 'score-1' })).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
    expect(await s.listJobs()).toMatchObject([{ id: 'score-1', status: 'interrupted' }]);
    expect(await dispatch(s, 'cancelJob', { id: 'score-1' })).toMatchObject({ ok: true, value: { status: 'cancelled' } });
  });

  it("allows the engine's own folders (the models folder) and lists only recent models inside", async () => {
    const s = confined();
    const models = join(config, 'models');
    mkdirSync(models, { recursive: true });
    writeFileSync(join(models, 'pulled.gguf'), 'GGUF');
    expect(s.paths.resolve(join(models, 'pulled.gguf'), 'f')).toBe(join(models, 'pulled.gguf'));
    writeFileSync(
      join(config, 'recent-models.json'),
      JSON.stringify([
        { path: join(outside, 'model.gguf'), name: 'out' },
        { path: join(models, 'pulled.gguf'), name: 'in' },
      ]),
    );
    expect((await s.getModels()).recent.map((m) => m.name)).toEqual(['in']);
    expect(() => s.paths.resolve(join(config, 'recent-projects.json'), 'f')).toThrow(/outside/);
  });
});

function makeProject(dir: string): string {
  ProjectStore.create(dir);
  return dir;
}
