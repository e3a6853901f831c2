// For the fault suite's kill loop: accepts versions of a task's space and writes the task's budget
// sweep one point more at a time (as a sweep job stores each measured budget), as fast as it can,
// printing each write once it has returned: `accepted <version>` and `swept <points>`.
import { ProjectStore } from '../../../electron/engine/store';

const [project, task] = process.argv.slice(2) as [string, string];
const store = ProjectStore.open(project);
const points: Array<{ k: number; tools: string[]; accuracy: number; n: number; promptTokens: number }> = [];
for (let i = 0; ; i++) {
  const tools = ['A', 'B', 'C', 'D'].slice(0, 1 + (i % 4));
  const v = store.acceptSpace({ task, tools, pinned: [], banned: [], rule: { kind: 'manual' }, note: `edit ${i}` });
  process.stdout.write(`accepted ${v.version}\n`);
  points.push({ k: points.length, tools, accuracy: (i % 10) / 10, n: 20, promptTokens: 100 + i });
  store.writeSweep({ task, model: 'm.gguf', points, baselines: [], createdAt: new Date().toISOString() });
  process.stdout.write(`swept ${points.length}\n`);
}
