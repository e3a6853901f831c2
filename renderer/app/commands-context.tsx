// Shell commands available to every view (open, import, navigate), provided by the App.
import { createContext, useContext } from 'react';
import type { Commands } from './commands';

export const CommandsContext = createContext<Commands | null>(null);

export function useCommands(): Commands {
  const c = useContext(CommandsContext);
  if (!c) throw new Error('useCommands outside App');
  return c;
}
