// The space editor: accept the proposal or edit it (keep, drop, pin, defer, ban; a note is required for an
// edit), see each tool's state (pinned, deferred, hidden), the diff against the previous approved version
// and the version history. Keyboard-driven.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { diffSpaces } from '../../shared/project/spaces';
import { selectTopK } from '../../shared/lots/select';
import { Empty } from '../components/Empty';
import { selectKept, selectStates } from '../store/draft-slice';
import { acceptInputOf, isEdited, rankingOf, sameAsVersion } from '../../shared/lots/space-draft';
import { useDraft, useStudio } from '../store/react';
import { useViewOnly, ViewOnlyNote } from '../components/ViewOnly';
import { DraftCard } from './space/DraftCard';
import { ToolRow } from './space/ToolRow';
import { useReviewKeys } from './space/useReviewKeys';
import { VersionHistory } from './space/VersionHistory';

export function SpaceView() {
  const task = useStudio((s) => s.route.task);
  const { space, draft } = useDraft(task);
  const kept = useStudio((s) => selectKept(s, task));
  const states = useStudio((s) => selectStates(s, task));
  const cursor = useStudio((s) => s.reviewCursor);
  const setCursor = useStudio((s) => s.setReviewCursor);
  const editTool = useStudio((s) => s.editTool);
  const acceptDraft = useStudio((s) => s.acceptDraft);
  const viewOnly = useViewOnly();
  const listRef = useRef<HTMLDivElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const [historyOpen, setHistoryOpen] = useState<number | null>(null);
  const refocus = useRef(false);
  const approve = useCallback(() => {
    if (!task) return;
    refocus.current = true;
    // Confirmed beside the button, not in a toast over the version history (issue 40).
    void acceptDraft(task, { inline: true });
  }, [task, acceptDraft]);

  const ranking = useMemo(() => rankingOf(space), [space]);
  const top = useMemo(() => new Set(draft ? selectTopK(ranking, draft.k) : []), [ranking, draft]);
  const keptSet = useMemo(() => new Set(kept ?? []), [kept]);
  const candidates = useMemo(() => space?.candidates ?? [], [space]);
  const previous = space?.approved ?? null;
  const diff = useMemo(() => diffSpaces(previous?.tools ?? [], kept ?? []), [previous, kept]);
  // Same states and edits as the approved version: nothing to approve.
  const unchanged =
    previous !== null && space !== undefined && draft !== undefined && task !== undefined && sameAsVersion(acceptInputOf(task, space, draft), previous);
  const edited = draft ? isEdited(draft) && !unchanged : false;
  const noteMissing = edited && !draft?.note.trim();

  // Review keys on the list: arrows/j/k move, a/x/p/b act, n jumps to the note, Ctrl+Enter approves.
  useReviewKeys({ listRef, noteRef, task, draft, candidates, cursor, setCursor, editTool, approve, noteMissing, viewOnly });

  // An approval reloads the space (the list is briefly replaced): the focus comes back to the list.
  useEffect(() => {
    if (refocus.current && draft && listRef.current) {
      refocus.current = false;
      listRef.current.focus();
    }
  }, [draft, space]);

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${cursor}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  if (!task) return <Empty title="No task selected">Pick a task on the project view.</Empty>;
  if (!space || !draft) return <p className="muted">Loading the spaces of {task}…</p>;
  if (candidates.length === 0) return <Empty title="No tools on this task's menus">Import traces for this task first.</Empty>;

  return (
    <>
      <ViewOnlyNote what="Editing and approving the space" />
      <div className="space-layout">
        <div className="card space-list-card">
          <div className="card-head">
            <h2>Tools</h2>
            <span className="sub">
              ↑↓ move · <kbd>a</kbd> keep · <kbd>x</kbd> drop · <kbd>p</kbd> pin · <kbd>d</kbd> defer · <kbd>b</kbd> ban · <kbd>?</kbd> all keys
            </span>
          </div>
          <div
            className="space-list"
            ref={listRef}
            tabIndex={0}
            role="listbox"
            aria-label="Tools of the task; arrows to move, a keep, x drop, p pin, d defer, b ban"
            aria-activedescendant={`cand-${cursor}`}
            data-testid="space-list"
          >
            <div className="space-row space-head">
              <span className="num">#</span>
              <span>tool</span>
              <span className="num">Ī</span>
              <span className="num">n</span>
              <span>status</span>
              <span />
            </div>
            {candidates.map((c, i) => (
              <ToolRow
                key={c.tool}
                c={c}
                i={i}
                task={task}
                draft={draft}
                states={states}
                keptSet={keptSet}
                top={top}
                cursor={cursor}
                setCursor={setCursor}
                editTool={editTool}
                viewOnly={viewOnly}
                listRef={listRef}
              />
            ))}
          </div>
        </div>

        <div className="space-side">
          <DraftCard
            task={task}
            space={space}
            draft={draft}
            ranking={ranking}
            kept={kept}
            states={states}
            previous={previous}
            diff={diff}
            unchanged={unchanged}
            edited={edited}
            noteMissing={noteMissing}
            approve={approve}
            viewOnly={viewOnly}
            noteRef={noteRef}
            listRef={listRef}
          />

          <VersionHistory versions={space.versions} historyOpen={historyOpen} setHistoryOpen={setHistoryOpen} />
        </div>
      </div>
    </>
  );
}
