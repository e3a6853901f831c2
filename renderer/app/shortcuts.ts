// Page-wide keyboard shortcuts. Keys typed into a field are left alone (except Escape).
import { useEffect } from 'react';
import type { StudioStore } from '../store/store';
import { TASK_VIEWS } from '../store/types';
import type { Commands } from './commands';
import { isTyping } from '../components/keys';
import { VIEW_DEFS } from '../store/views';

export function useGlobalShortcuts(store: StudioStore, commands: Commands, focusSearch: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = store.getState();
      if (e.key === 'Escape' && s.cheatsheet) {
        s.setCheatsheet(false);
        return;
      }
      // Alt+1…9 (browser) and Ctrl/Cmd+1…9 (the desktop menu sends these too).
      if ((e.altKey || e.ctrlKey || e.metaKey) && /^Digit[1-9]$/.test(e.code)) {
        const def = VIEW_DEFS[Number(e.code.slice(5)) - 1];
        if (def && (!def.needsTask || (s.project && s.route.task))) {
          e.preventDefault();
          commands.go(def.name);
        }
        return;
      }
      // Alt+0, Alt+G, Alt+M in a browser: the views after the ninth.
      if (e.altKey && !e.ctrlKey && !e.metaKey) {
        const def = VIEW_DEFS.find((v) => v.key?.code === e.code);
        if (def) {
          e.preventDefault();
          commands.go(def.name);
          return;
        }
      }
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'o' && s.info?.transport === 'web') {
        e.preventDefault();
        void commands.openProject();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === '?') {
        e.preventDefault();
        s.setCheatsheet(!s.cheatsheet);
      } else if (e.key === '/' && s.route.view === 'heatmap') {
        e.preventDefault();
        focusSearch();
      } else if ((e.key === '[' || e.key === ']') && TASK_VIEWS.includes(s.route.view) && s.route.task) {
        const d = s.drafts[s.route.task];
        if (!d) return;
        e.preventDefault();
        const max = s.spaces[s.route.task]?.value.candidates.filter((c) => c.rank !== null).length ?? d.k;
        s.setK(s.route.task, Math.max(0, Math.min(max, d.k + (e.key === ']' ? 1 : -1))));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, commands, focusSearch]);
}
