// The served model, held to the one a job started on. A server restarted with another model mid-job
// would go on answering under the same run key, and a score subtracts two log-probs: one of each model
// (a "score" of 8.4 was seen). So the identity (name and a hash of what the server reports about the
// weights: client.ts' runIdentity) is asked again after any request of an endpoint was retried (the
// retry may have reached a restarted server), before each trace's result is stored (a restart between
// two requests of a trace opens a new connection without any error to see), and at the end of each
// batch; on a change the job fails and the traces in flight are not stored.
import { ExpectedError } from '../../../../shared/api/errors';
import { runIdentity, type PromptScoringClient, type RemoteBackend, type ServedModel } from './client';

export class ServedModelGuard {
  private readonly retried = new Set<string>();
  private expected: { served: ServedModel; identity: string } | undefined;

  constructor(private readonly backend: RemoteBackend) {}

  /** The model the job runs on: what the endpoints served when it started. */
  pin(served: ServedModel): void {
    this.expected = { served, identity: runIdentity(this.backend, served) };
  }

  get identity(): string {
    if (!this.expected) throw new Error('ServedModelGuard: no model pinned yet');
    return this.expected.identity;
  }

  /** For the clients' onRetry: a request of this endpoint was retried. */
  noteRetry(endpoint: string): void {
    this.retried.add(endpoint);
  }

  /** After each request: ask the endpoint again when one of its requests was retried since its last check. */
  async afterRequest(client: PromptScoringClient): Promise<void> {
    if (this.expected && this.retried.has(client.endpoint)) await this.verify(client, 'after a retried request');
  }

  /** Ask the endpoint what it serves now; SERVER_MODEL_MISMATCH when it is not the job's model. */
  async verify(client: PromptScoringClient, when: string): Promise<void> {
    const expected = this.expected;
    if (!expected) throw new Error('ServedModelGuard: no model pinned yet');
    this.retried.delete(client.endpoint);
    const now = runIdentity(this.backend, await client.servedModel());
    if (now === expected.identity) return;
    throw new ExpectedError(
      'SERVER_MODEL_MISMATCH',
      `${client.endpoint} now serves ${now} (asked ${when}), but this job started on ${expected.identity}: the server was restarted with another model. ` +
        `The traces in flight are not stored (every score stored before was checked against ${expected.served.name}). ` +
        `Serve ${expected.served.name} there again and run the job again, or score with the new model in a new job`,
    );
  }
}
