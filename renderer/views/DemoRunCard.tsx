// "Run the demo": `lots demo` from the Studio, as a job of the engine (the same runDemo as the CLI). The
// form: output folder, model (the default real model once pulled, or the generated reference model,
// named for what it is), preset, families, registry sizes. Then the job's steps — done, running with
// their counts, waiting — with Cancel, Resume (after a cancel, a failure, or a restart of the Studio:
// the same folder continues where it stopped), and the demo project opened when it is done.
import { useEffect, useState } from 'react';
import type { JobInfo } from '../../shared/api';
import { useStudio } from '../store/react';
import { DemoRunForm } from './demo/DemoRunForm';
import { DemoRunProgress } from './demo/DemoRunProgress';

export { parseRegistrySizes } from './demo/DemoRunForm';

/** The newest demo job: the one the card follows. */
function latestDemo(jobs: readonly JobInfo[]): JobInfo | null {
  let latest: JobInfo | null = null;
  for (const j of jobs) if (j.kind === 'demo' && (!latest || j.createdAt >= latest.createdAt)) latest = j;
  return latest;
}

export function DemoRunCard() {
  const setup = useStudio((s) => s.demoSetup);
  const loadSetup = useStudio((s) => s.loadDemoSetup);
  const job = useStudio((s) => latestDemo(s.jobs));
  const [another, setAnother] = useState(false);
  useEffect(() => {
    void loadSetup();
  }, [loadSetup]);
  const showForm = !job || another;
  return (
    <section className="card demo-run" aria-labelledby="demo-run-title" data-testid="demo-run">
      <div className="card-head">
        <h2 id="demo-run-title">Run the demo</h2>
        <span className="sub">
          the whole loop, as <code>lots demo</code> runs it: make → serve → score → sweep → evaluate
        </span>
      </div>
      {showForm ? (
        setup ? (
          <DemoRunForm setup={setup} onStarted={() => setAnother(false)} onBack={job ? () => setAnother(false) : undefined} />
        ) : (
          <p className="small muted">Reading the demo settings…</p>
        )
      ) : (
        <DemoRunProgress job={job} onAnother={() => setAnother(true)} />
      )}
    </section>
  );
}
