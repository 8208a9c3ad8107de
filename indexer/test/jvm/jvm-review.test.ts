// change_impact on Java and Kotlin, through `indexer review` on test/fixtures/jvm-shop committed into
// a repository: a removed overload breaks the call whose argument only it accepted, a removed Java
// getter breaks Kotlin's reads and writes of its property, and an identifier the resolver left
// undecided that is named like the changed symbol (a Kotlin property of an untyped receiver) makes
// the answer say it is not exact, and why.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareReview, reviewOutput } from '../../src/review-command.ts';
import { Progress } from '../../src/progress.ts';
import { commitAll, fixtureRepo, git, type FixtureRepo } from '../support/fixture-repo.ts';

const FIXTURE = new URL('../../../test/fixtures/jvm-shop/', import.meta.url).pathname;
const ORDER = 'core/src/main/java/com/example/core/Order.java';
const scratch = mkdtempSync(join(tmpdir(), 'sextant-jvm-review-'));

let repo: FixtureRepo;
beforeAll(() => {
  repo = fixtureRepo(FIXTURE);
});
afterAll(() => {
  repo.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

interface Site { path: string; line: number; status: string; reason: string }
interface Impact { symbol: { name: string }; change: string; sites: Site[] }
interface ImpactAnswer {
  impacts: Impact[];
  totalIsExact: boolean;
  truncationReason?: string;
  coverage: { unresolved: { count: number; examples: { path: string; line: number; column: number; name: string }[] } };
}

/** A commit on top of `from` that edits Order.java and writes `files`. */
function commitOn(from: string, edit: (order: string) => string, files: Record<string, string> = {}): string {
  git(repo.dir, 'checkout', '-q', '--detach', from);
  const path = join(repo.dir, ORDER);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(repo.dir, file), text);
  return commitAll(repo.dir, 'mutant');
}

/** change_impact from `base` to `head`, as `indexer review --format json` answers. */
async function impactOf(base: string, head: string): Promise<ImpactAnswer> {
  const prepared = await prepareReview({ base, head, repo: repo.dir, outRoot: join(scratch, 'indexes'), maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
  return JSON.parse(await reviewOutput(prepared, 'json')).change_impact;
}

const broken = (impact: Impact | undefined) => impact?.sites.filter((s) => s.status === 'broken').map((s) => `${s.path}:${s.line}`);

describe('change_impact on Java and Kotlin', { timeout: 180_000 }, () => {
  it('breaks the call whose argument type only the removed overload accepted, not the one the remaining overload takes', async () => {
    const answer = await impactOf(repo.commit, commitOn(repo.commit, (order) => order.replace('    public void discount(String code) {\n        discount(code.length());\n    }\n\n', '')));
    const removed = answer.impacts.find((i) => i.symbol.name === 'discount' && i.change === 'removed');
    expect(broken(removed)).toEqual(['app/src/main/java/com/example/app/Promotions.java:9']);
    expect(removed!.sites.find((s) => s.line === 9)!.reason).toMatch(/no longer resolves/);
    // The call that no longer resolves is the broken site itself, not one more undecided identifier.
    expect(answer.coverage.unresolved.count).toBe(0);
    expect(answer.totalIsExact).toBe(true);
  });

  it('breaks Kotlin\'s reads and writes of the property a removed Java getter made', async () => {
    const answer = await impactOf(repo.commit, commitOn(repo.commit, (order) => order.replace('    public Status getStatus() {\n        return status;\n    }\n\n', '')));
    const removed = answer.impacts.find((i) => i.symbol.name === 'getStatus');
    expect(broken(removed)).toEqual([
      'app/src/main/kotlin/com/example/app/OrderService.kt:20',
      'app/src/test/kotlin/com/example/app/OrderServiceTest.kt:17',
      'core/src/main/java/com/example/core/InMemoryOrderRepository.java:30',
    ]);
  });

  it('is not exact when an identifier named like the changed symbol\'s Kotlin property could not be resolved, and says why', async () => {
    const note = '    public String getNote() {\n        return "";\n    }\n\n';
    const use = 'app/src/main/kotlin/com/example/app/Notes.kt';
    // The receiver's type is declared nowhere: `order.note` may be the getter's property, or not.
    const base = commitOn(repo.commit, (order) => order.replace('    public Money total() {', `${note}    public Money total() {`), {
      [use]: 'package com.example.app\n\nfun noteOf(order: Unknown) = order.note\n',
    });
    const answer = await impactOf(base, commitOn(base, (order) => order.replace(note, '')));
    expect(answer.impacts.map((i) => `${i.change} ${i.symbol.name} ${i.sites.length}`)).toEqual(['modified Order 0', 'removed getNote 0']);
    expect(answer.coverage.unresolved).toEqual({ count: 1, examples: [{ path: use, line: 3, column: 36, name: 'note' }] });
    expect(answer.totalIsExact).toBe(false);
    expect(answer.truncationReason).toMatch(/1 identifiers could not be resolved \(coverage.unresolved\)/);
  });
});
