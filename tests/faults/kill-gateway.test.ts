// Fault suite: kill -9 of `lots gateway openai` in the middle of its traffic (issue 37, item 9). Agents
// keep sending requests (answers with text, answers calling a tool that nothing continues, streams); the
// gateway is killed at a random point, its batch never committed. The next gateway started on the
// project commits the dead one's journal: every request whose client got a complete answer is then in
// the project as a trace, once. The figures: kills injected, traces recovered, answered exchanges lost.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../cli/io';
import { chatRequest, makeProject } from '../gateway/fixture';
import { rawRequest, startGatewayProcess } from '../gateway/gateway-process';
import { chatAnswer, sseEvent, startRawUpstream } from '../gateway/raw-upstream';
import { recordFaults } from './fault-tally';
import { faultRandom } from './kill';

const ROUNDS = 4;
const AGENTS = 4;

const tmp = tempDir('lots-kill-gateway-');
afterAll(() => tmp.cleanup());

/** How many traces of the project's committed files hold each request text. */
function textsOnDisk(project: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const f of readdirSync(join(project, 'traces')).filter((n) => /^\d+\.jsonl$/.test(n)))
    for (const line of readFileSync(join(project, 'traces', f), 'utf8').split('\n')) {
      const text = /"(req-\d+-\d+-\d+)"/.exec(line)?.[1];
      if (text) seen.set(text, (seen.get(text) ?? 0) + 1);
    }
  return seen;
}

describe('kill -9 of `lots gateway openai` mid-traffic', () => {
  it(`loses no answered exchange over ${ROUNDS} kills: the next start commits the journal`, async () => {
    const random = faultRandom('gateway');
    const up = await startRawUpstream();
    up.handle = (got, res) => {
      const text = got.body.toString('utf8');
      const n = Number(/req-\d+-\d+-(\d+)/.exec(text)?.[1] ?? 0);
      if (text.includes('"stream":true')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sseEvent({ role: 'assistant', content: 'ok' }) + sseEvent({}, 'stop') + 'data: [DONE]\n\n');
      } else if (n % 3 === 1) {
        const call = { id: `call_${n}`, type: 'function', function: { name: 'ExchangeRate', arguments: '{"query":"EUR"}' } };
        res.writeHead(200, { 'content-type': 'application/json' }).end(chatAnswer({ role: 'assistant', content: null, tool_calls: [call] }));
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(chatAnswer());
    };
    const project = makeProject(tmp.dir, 'killed');
    const answered = new Set<string>();
    let recoveredTraces = 0;
    let unreadable = 0;
    const recoveredFrom = (err: string): void => {
      for (const m of err.matchAll(/recovered (\d+) trace\(s\) from the journal .*; (\d+) line\(s\) could not be read back/g)) {
        recoveredTraces += Number(m[1]);
        unreadable += Number(m[2]);
      }
    };
    for (let round = 0; round < ROUNDS; round++) {
      const gw = await startGatewayProcess(['--project', project, '--upstream', up.url, '--batch-minutes', '60']);
      let stop = false;
      const agent = async (a: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
          const text = `req-${round}-${a}-${i}`;
          const r = await rawRequest(gw.url, 'POST', '/v1/chat/completions', JSON.stringify(chatRequest(text, i % 4 === 3 ? { stream: true } : {})), {
            'x-lots-task': 'fx',
          }).catch(() => undefined);
          if (!r) return; // the gateway is gone
          if (r.status === 200 && !r.cut) answered.add(text);
        }
      };
      const agents = Array.from({ length: AGENTS }, (_, a) => agent(a));
      await new Promise((done) => setTimeout(done, 300 + Math.floor(random() * 1200)));
      await gw.kill();
      stop = true;
      await Promise.all(agents);
      recoveredFrom(gw.err());
    }
    // The last start commits the last journal; a clean stop after it.
    const last = await startGatewayProcess(['--project', project, '--upstream', up.url]);
    // One request first: a SIGTERM in the first instants of a process started under vitest can end it
    // before its handlers are in place (seen 1 in 3; not reproduced from a shell), which is not this case's fault.
    await rawRequest(last.url, 'GET', '/v1/models');
    expect(await last.stop(), last.out() + last.err()).toBe(0);
    recoveredFrom(last.err());
    await up.close();

    const onDisk = textsOnDisk(project);
    const lost = [...answered].filter((t) => !onDisk.has(t));
    const duplicated = [...onDisk.values()].filter((n) => n > 1).length;
    process.stdout.write(
      `fault suite: gateway kill -9 ×${ROUNDS}: ${answered.size} exchanges answered, ${recoveredTraces} traces recovered from journals, ` +
        `${unreadable} torn journal line(s) (never answered), ${lost.length} answered exchanges lost\n`,
    );
    recordFaults({ injected: ROUNDS, recovered: lost.length === 0 ? ROUNDS : 0, lost: lost.length, duplicated, falseSuccesses: 0 });
    expect(answered.size).toBeGreaterThan(0);
    expect(recoveredTraces).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(duplicated).toBe(0);
  }, 180_000);
});
