// GitHub Actions workflows as the workflow tests read the examples' YAML: the shape of a step, and the check that its shell parses.
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';

export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

/** Every `run` step of a workflow is shell that `bash -n` accepts (GitHub's `${{ }}` expressions stand in as a word). */
export function expectShellParses(steps: readonly Step[]): void {
  for (const step of steps.filter((s) => s.run)) {
    const shell = step.run!.replace(/\$\{\{[^}]*\}\}/g, 'x');
    expect(() => execFileSync('bash', ['-n'], { input: shell, stdio: ['pipe', 'pipe', 'pipe'] }), step.name).not.toThrow();
  }
}
