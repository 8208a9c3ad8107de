// Fails when a requirement is proved by no end-to-end scenario, or a scenario cites an unknown id.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from './requirements.ts';

const dir = new URL('./', import.meta.url);
const scenarios = readdirSync(dir).filter((f) => f.endsWith('.test.ts') && f !== 'requirements-coverage.test.ts');
const cited = new Map<string, string[]>();
for (const file of scenarios) {
  for (const [, ids] of readFileSync(new URL(file, dir), 'utf8').matchAll(/it\(\s*['"`]((?:\[[A-Z]+-\d+\])+)/g)) {
    for (const [, id] of ids!.matchAll(/\[([A-Z]+-\d+)\]/g)) cited.set(id!, [...(cited.get(id!) ?? []), file]);
  }
}

describe('requirements coverage', () => {
  it('every requirement is proved by at least one scenario', () => {
    const uncited = Object.keys(REQUIREMENTS).filter((id) => !cited.has(id));
    expect(uncited, `requirements no scenario cites: ${uncited.map((id) => `${id} (${REQUIREMENTS[id]})`).join('; ')}`).toEqual([]);
  });

  it('every cited id is a requirement', () => {
    expect([...cited.keys()].filter((id) => !(id in REQUIREMENTS))).toEqual([]);
  });
});
