// Deferred tools in the single-step protocol (a three-state space's middle state, docs/spaces.md): the
// pinned tools are run for the request as always; the deferred ones are listed by name and a few words,
// not run, and the model may ask for them instead of answering — one round, as a tool search loads a
// deferred tool before the model answers. The request is then served again with the tools it asked for run
// beside the pinned ones (re-execution, so a chain the pinned tools could not finish is finished), and that
// answer is graded. An answer that is not a request for a deferred tool is graded as it is.

/** The line above the deferred list, as the model reads it. */
export const DEFERRED_HEADER =
  'Deferred tools (not run for this request). If you need one, reply only "RUN: <Tool>" (several: "RUN: <Tool>, <Tool>") and it will be run; otherwise answer.';

const RUN = /^\s*RUN\s*:?\s*([^\n]*)/i;

/**
 * The deferred tools a reply asks to run, in the deferred list's spelling and order; undefined when the reply
 * is not such a request (it does not start with RUN, or names no deferred tool), so it stands as the answer.
 */
export function deferredRequest(reply: string, deferred: readonly string[]): string[] | undefined {
  const m = RUN.exec(reply);
  if (!m) return undefined;
  const asked = new Set(
    m[1]!
      .split(/[\s,;]+/)
      .map((w) => w.replace(/^[^\w]+|[^\w]+$/g, '').toLowerCase())
      .filter(Boolean),
  );
  const called = deferred.filter((t) => asked.has(t.toLowerCase()));
  return called.length > 0 ? called : undefined;
}
