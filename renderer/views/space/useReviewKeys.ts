// The Space view's review keys on the tool list: arrows/j/k move, a/x/p/d/b act, n jumps to the note, Ctrl+Enter approves.
import { useEffect, type RefObject } from 'react';
import type { DraftAction as EditAction } from '../../../shared/lots/space-draft';
import { isTyping } from '../../components/keys';

export function useReviewKeys({
  listRef,
  noteRef,
  task,
  draft,
  candidates,
  cursor,
  setCursor,
  editTool,
  approve,
  noteMissing,
  viewOnly,
}: {
  listRef: RefObject<HTMLDivElement | null>;
  noteRef: RefObject<HTMLTextAreaElement | null>;
  task: string | undefined;
  draft: unknown;
  candidates: readonly { tool: string }[];
  cursor: number;
  setCursor(i: number): void;
  editTool(task: string, tool: string, action: EditAction): void;
  approve(): void;
  noteMissing: boolean;
  viewOnly: boolean;
}) {
  // Review keys on the list: arrows/j/k move, a/x/p/b act, n jumps to the note, Ctrl+Enter approves.
  useEffect(() => {
    const el = listRef.current;
    if (!el || !task || !draft) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target)) return;
      // The keys act on the row that has the focus (a row's button), else on the row cursor (issue 40).
      const focusedRow = e.target instanceof HTMLElement && e.target !== el ? e.target.closest<HTMLElement>('[data-tool]') : null;
      const tool = focusedRow?.dataset.tool ?? candidates[cursor]?.tool;
      const act = (a: EditAction) => {
        if (tool && !viewOnly) editTool(task, tool, a);
      };
      if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
        e.preventDefault();
        if (viewOnly) return;
        if (!noteMissing) approve();
        else noteRef.current?.focus();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // Enter and Space on a focused button press that button, as everywhere else.
      if (e.target instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' ')) return;
      switch (e.key) {
        case 'ArrowDown':
        case 'j':
          setCursor(Math.min(candidates.length - 1, cursor + 1));
          break;
        case 'ArrowUp':
        case 'k':
          setCursor(Math.max(0, cursor - 1));
          break;
        case 'Home':
          setCursor(0);
          break;
        case 'End':
          setCursor(candidates.length - 1);
          break;
        case 'a':
        case '+':
        case 'Enter':
          act('keep');
          break;
        case 'x':
        case '-':
        case 'Delete':
          act('drop');
          break;
        case 'p':
          act('pin');
          break;
        case 'b':
          act('ban');
          break;
        case 'd':
          act('defer');
          break;
        case 'n':
          noteRef.current?.focus();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, [listRef, noteRef, task, draft, candidates, cursor, setCursor, editTool, approve, noteMissing, viewOnly]);
}
