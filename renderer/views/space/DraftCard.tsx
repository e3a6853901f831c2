// The Space view's draft card: Top-K, the diff against the approved version, the note, approve/reset, and the proposal's notes.
import type { RefObject } from 'react';
import type { SpaceState } from '../../../shared/api';
import { sameSet } from '../../../shared/base/sets';
import { describeRule } from '../../../shared/export/space-report';
import type { DraftStates, RankedTool, SpaceDraft } from '../../../shared/lots/space-draft';
import type { diffSpaces, SpaceVersion } from '../../../shared/project/spaces';
import { SpacePill } from '../../components/SpacePill';
import { VIEW_ONLY_REASON } from '../../components/ViewOnly';
import { useStudio, useTaskView } from '../../store/react';

export function DraftCard({
  task,
  space,
  draft,
  ranking,
  kept,
  states,
  previous,
  diff,
  unchanged,
  edited,
  noteMissing,
  approve,
  viewOnly,
  noteRef,
  listRef,
}: {
  task: string;
  space: SpaceState;
  draft: SpaceDraft;
  ranking: RankedTool[];
  kept: string[] | null;
  states: DraftStates | null;
  previous: SpaceVersion | null;
  diff: ReturnType<typeof diffSpaces>;
  unchanged: boolean;
  edited: boolean;
  noteMissing: boolean;
  approve(): void;
  viewOnly: boolean;
  noteRef: RefObject<HTMLTextAreaElement | null>;
  listRef: RefObject<HTMLDivElement | null>;
}) {
  const setNote = useStudio((s) => s.setNote);
  const setK = useStudio((s) => s.setK);
  const resetDraft = useStudio((s) => s.resetDraft);
  const accepting = useStudio((s) => s.accepting);
  const lastApproval = useStudio((s) => (s.lastApproval?.task === task ? s.lastApproval : null));
  const budget = useTaskView('budgets', task);
  const status = useStudio((s) => s.project?.tasks.find((t) => t.task === task)?.space);
  return (
    <div className="card">
      <div className="card-head">
        <h2>Draft space</h2>
        {status && <SpacePill status={status.status} version={status.version} />}
      </div>
      <div className="field-row" style={{ alignItems: 'center', marginBottom: 10 }}>
        <span className="small text-2">Top-K</span>
        <input
          type="range"
          min={0}
          max={ranking.length}
          value={Math.min(draft.k, ranking.length)}
          onChange={(e) => setK(task, Number(e.target.value))}
          style={{ flex: 1 }}
          aria-label="Budget K"
        />
        <span className="tabular">
          <strong>K = {draft.k}</strong> → {kept?.length ?? 0} pinned, {states?.deferred.length ?? 0} deferred
        </span>
        {budget?.recommendedK !== null && budget?.recommendedK !== undefined && budget.recommendedK !== draft.k && (
          <button
            className="btn ghost small"
            onClick={() => setK(task, budget.recommendedK!)}
            title={budget.recommendedBy === 'sweep' ? 'Smallest K at the best fitting accuracy' : 'Every tool with a positive score (no sweep yet)'}
            data-testid="space-use-recommended-k"
          >
            use K = {budget.recommendedK}
          </button>
        )}
      </div>
      <div className="small text-2" style={{ marginBottom: 6 }}>
        Diff against {previous ? `approved v${previous.version}` : 'nothing approved yet'}:
      </div>
      <div className="chips" data-testid="space-diff">
        {diff.kept.map((t) => (
          <span key={t} className={`chip${draft.pinned.includes(t) ? ' pinned' : ''}`}>
            {t}
          </span>
        ))}
        {diff.added.map((t) => (
          <span key={t} className={`chip added${draft.pinned.includes(t) ? ' pinned' : ''}`}>
            + {t}
          </span>
        ))}
        {diff.removed.map((t) => (
          <span key={t} className="chip removed">
            {t}
          </span>
        ))}
        {(kept?.length ?? 0) === 0 && diff.removed.length === 0 && <span className="muted small">empty space</span>}
      </div>
      <label className="field" style={{ marginTop: 12 }}>
        <span>
          Note{' '}
          {unchanged ? (
            <span className="muted">(no changes since v{previous?.version})</span>
          ) : edited ? (
            <span className="bad">(required: say why you edited the proposal)</span>
          ) : (
            <span className="muted">(optional for the unedited proposal)</span>
          )}
        </span>
        <textarea
          ref={noteRef}
          rows={3}
          value={draft.note}
          onChange={(e) => setNote(task, e.target.value)}
          placeholder="e.g. pinned Calculator: the team's agents always need it"
          data-testid="space-note"
          disabled={viewOnly}
          title={viewOnly ? VIEW_ONLY_REASON : undefined}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && !noteMissing) approve();
            if (e.key === 'Escape') listRef.current?.focus();
          }}
        />
      </label>
      <div className="btn-row" style={{ marginTop: 10 }}>
        <button
          className="btn primary"
          onClick={approve}
          disabled={viewOnly || accepting || noteMissing || unchanged}
          data-testid="approve-space"
          aria-describedby={viewOnly ? 'approve-why' : undefined}
          title={viewOnly ? VIEW_ONLY_REASON : noteMissing ? 'Write a note first' : unchanged ? 'Same as the approved version' : 'Ctrl+Enter'}
        >
          {accepting ? <span className="spinner" /> : null}{' '}
          {unchanged ? `Approved as v${previous!.version}` : previous ? `Approve as v${previous.version + 1}` : 'Approve v0'}
        </button>
        <button className="btn" onClick={() => resetDraft(task, 'proposal')}>
          Reset to proposal
        </button>
        {previous && (
          <button className="btn ghost" onClick={() => resetDraft(task, 'approved')}>
            Back to v{previous.version}
          </button>
        )}
      </div>
      {viewOnly && (
        <p className="tiny muted" id="approve-why" data-testid="approve-why">
          Approving is off: {VIEW_ONLY_REASON}.
        </p>
      )}
      {lastApproval && previous?.version === lastApproval.version && (
        <div className="callout good small" role="status" data-testid="space-approved" style={{ marginTop: 8 }}>
          <strong>Approved as v{lastApproval.version}</strong> · {lastApproval.message}. It is now at the top of the version history below.
        </div>
      )}
      <p className="muted tiny" style={{ marginTop: 8 }}>
        Proposal: {describeRule(space.proposal.rule)} → {space.proposal.tools.length} tools
        {space.proposal.rule.kind === 'topk' && space.proposal.tools.length > space.proposal.rule.k
          ? ` (${space.proposal.tools.length - space.proposal.rule.k} pinned tool${space.proposal.tools.length - space.proposal.rule.k === 1 ? '' : 's'} counted on top of K = ${space.proposal.rule.k})`
          : ''}
        . Pinned tools are always kept, banned ones never; the rule never pads with unscored tools.
      </p>
      {space.changedSinceApproval && (
        <div className="callout warn small" style={{ marginTop: 8 }}>
          Scores changed since v{previous?.version} was approved: review the ranking before approving again.
        </div>
      )}
      {space.update && !sameSet(space.update.tools, kept ?? []) && (
        <div className="callout small" style={{ marginTop: 8 }} data-testid="space-update-proposal">
          The continual update after batch {space.update.batch} proposes{' '}
          {space.update.tools.length === 0 ? 'no tool' : <span className="mono">{space.update.tools.join(', ')}</span>} ({describeRule(space.update.rule)} of
          the running scores, α = {space.update.alpha}; see History).{' '}
          <button className="btn small" onClick={() => resetDraft(task, 'update')} data-testid="use-update-proposal">
            Use the update proposal
          </button>
        </div>
      )}
    </div>
  );
}
