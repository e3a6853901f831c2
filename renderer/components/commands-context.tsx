// Shell commands available to every view (open, import, navigate), provided by the App.
import { createContext, useContext } from 'react';
import type { MenuCommand } from '../../shared/api';
import type { ViewName } from '../store/types';

export interface Commands {
  openProject(): Promise<void>;
  newProject(): Promise<void>;
  importTraces(): Promise<void>;
  go(view: ViewName): void;
  run(command: MenuCommand): void;
}

export const CommandsContext = createContext<Commands | null>(null);

export function useCommands(): Commands {
  const c = useContext(CommandsContext);
  if (!c) throw new Error('useCommands outside App');
  return c;
}
