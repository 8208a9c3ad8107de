// Where the runner keeps what belongs to the user rather than to a repository: its plan-signing
// key and the public keys it trusts. $XDG_CONFIG_HOME/sextant, or ~/.config/sextant without it.
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function configDir(): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  // The XDG spec says a relative value is to be ignored.
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.config'), 'sextant');
}

/** The directory, created private to the user when it does not exist yet. */
export async function ensureConfigDir(): Promise<string> {
  const dir = configDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
