// Where the Studio keeps per-user state outside projects (recent projects, generated/downloaded models).
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultConfigDir(): string {
  if (process.env.LOTS_CONFIG_DIR) return process.env.LOTS_CONFIG_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'lots-studio');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'lots-studio');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'lots-studio');
}
