// Query planning for search_text: the grams a query's every match must contain, and the bytes that
// follow them. A plan may let through files that do not match (they are checked), never keep out one
// that does.
import { describe, expect, it } from 'vitest';
import { followBit } from '@sextant/format';
import { MAX_SEQUENCE, planLiteral, planRegex, requiredRuns, type TextPlan } from '../src/text-search-plan.ts';

/** The grams of each alternative, as the trigram strings they fold from (those with a capital looked up as they are), sorted. */
const shown = (plan: TextPlan) => (plan.kind === 'all' ? 'all' : plan.alternatives.map((grams) => grams.first.map(text).sort()));
/** The grams looked up only when the first leave many candidates. */
const rest = (plan: TextPlan) => (plan.kind === 'all' ? 'all' : plan.alternatives.map((grams) => grams.rest.map(text).sort()));
const text = (g: number) => String.fromCharCode((g >> 16) & 0xff, (g >> 8) & 0xff, g & 0xff);

describe('planning a literal', () => {
  it('looks up the first, the last and evenly spread grams of it, folded, or as they are with a capital when case-sensitive', () => {
    // 9 grams; the 1st, 4th, 6th and 9th.
    expect(shown(planLiteral('createOrder', false))).toEqual([['ate', 'cre', 'der', 'eOr']]);
    expect(rest(planLiteral('createOrder', false))).toEqual([['Ord', 'rde', 'rea', 'teO', 'eat'].sort()]);
    expect(shown(planLiteral('createOrder', true))).toEqual([['ate', 'cre', 'der', 'eor']]);
    expect(shown(planLiteral('abc', false))).toEqual([['abc']]);
    expect(rest(planLiteral('abc', false))).toEqual([[]]);
    expect(planLiteral('ABC', true)).toEqual(planLiteral('abc', true));
    expect(shown(planLiteral('ABC', false))).toEqual([['ABC']]);
  });

  it('requires after each gram the byte that follows it in the literal (its follow bit), and nothing after the last', () => {
    const byte = (c: string) => followBit(c.charCodeAt(0));
    const follows = (plan: TextPlan) => (plan.kind === 'all' ? 'all' : Object.fromEntries([...plan.alternatives[0]!.follows].map(([g, bits]) => [text(g), bits])));
    expect(follows(planLiteral('abcab', false))).toEqual({ abc: byte('a'), bca: byte('b') });
    // A gram twice: both followers.
    expect(follows(planLiteral('abcdabce', false))).toEqual({ abc: byte('d') | byte('e'), bcd: byte('a'), cda: byte('b'), dab: byte('c') });
    // Followers fold, as the index's masks do.
    expect(follows(planLiteral('xyZA', true))).toEqual(follows(planLiteral('xyza', true)));
    // Case-insensitively, a piece ends at k, s and non-ASCII: what follows it there is unknown.
    expect(follows(planLiteral('abcsdef', true))).toEqual({});
    // A regex run's last gram has no follower either: `foo\d` requires no byte after `foo`.
    expect(follows(planRegex('fooo\\d', false))).toEqual({ foo: byte('o') });
  });

  it('plans on every file for a query shorter than a gram', () => {
    expect(planLiteral('ab', false)).toEqual({ kind: 'all', why: expect.stringContaining('"ab"') });
  });

  it('case-insensitively, leaves out what Unicode folding could match in other bytes: non-ASCII, k and s', () => {
    // K matches the Kelvin sign, s the long s; é matches É, whose bytes differ.
    expect(shown(planLiteral('parkinglot', true))).toEqual([['glo', 'ing', 'lot', 'ngl', 'par']]);
    expect(shown(planLiteral('caféteria', true))).toEqual([['caf', 'eri', 'ria', 'ter']]);
    expect(planLiteral('ask', true).kind).toBe('all');
    // Case-sensitively the bytes are exact.
    expect(shown(planLiteral('ask', false))).toEqual([['ask']]);
  });
});

describe('planning a regular expression', () => {
  it('requires the plain runs of a sequence, ended by classes, groups, dots and escapes', () => {
    expect(shown(planRegex('fooBar\\d+baz', false))).toEqual([['Bar', 'baz', 'foo', 'oBa', 'ooB']]);
    expect(shown(planRegex('(?i)fooBar\\d+baz', false))).toEqual([['bar', 'baz', 'foo', 'oba', 'oob']]);
    expect(shown(planRegex('class [A-Z]\\w+Service', false))).toEqual([['Ser', 'ass', 'cla', 'erv', 'ice', 'las', 'ss ', 'vic']]);
    expect(shown(planRegex('^import .* from', false))).toEqual([[' fr', 'fro', 'imp', 'mpo', 'ort', 'rom', 'rt ']]);
  });

  it('drops a character a quantifier makes optional, and keeps one it repeats', () => {
    expect(shown(planRegex('colou?r', false))).toEqual([['col', 'olo']]);
    expect(shown(planRegex('abcd*', false))).toEqual([['abc']]);
    expect(shown(planRegex('abcd+ef', false))).toEqual([['abc', 'bcd']]);
    expect(shown(planRegex('ab{0,2}cde', false))).toEqual([['cde']]);
  });

  it('needs one alternative\'s literals or another\'s, and every file when one alternative needs none', () => {
    expect(shown(planRegex('TODO|FIXME', false))).toEqual([['ODO', 'TOD'], ['FIX', 'IXM', 'XME']]);
    expect(planRegex('TODO|x', false).kind).toBe('all');
    expect(planRegex('TODO|', false).kind).toBe('all');
    // An alternation inside a group is read as no literal: the group only ends the run.
    expect(shown(planRegex('(get|set)Value', false))).toEqual([['Val', 'alu', 'lue']]);
  });

  it('reads escaped punctuation and \\Q…\\E as plain characters', () => {
    expect(shown(planRegex('a\\.b\\.c', false))).toEqual([['.b.', 'a.b', 'b.c']]);
    expect(shown(planRegex('\\Q(x+y)\\E', false))).toEqual([['(x+', 'x+y', '+y)']].map((l) => l.sort()));
  });

  it('plans on every file for a pattern with no required literal of a gram\'s length', () => {
    expect(planRegex('\\w+', false).kind).toBe('all');
    expect(planRegex('[a-z]{3}', false).kind).toBe('all');
    expect(planRegex('.*', false).kind).toBe('all');
  });

  it('reads, per alternative, the longest run of characters and simple classes a match holds, as a JavaScript pattern', () => {
    const sequences = (pattern: string) => requiredRuns(pattern).sequences;
    // What prefilters a pattern with no literal: a class repeated as often as it must be.
    expect(sequences('\\d{3,}')).toEqual(['\\d\\d\\d']);
    expect(sequences('[A-Z][a-z]+Error\\b')).toEqual(['Error']);
    expect(sequences('[A-Z][a-z]{2}x*')).toEqual(['[A-Z][a-z][a-z]']);
    // `.` is any character but a line break, and assertions consume nothing, so a run goes on past them.
    expect(sequences('foo.b\\bar$')).toEqual(['foo[^\\n]bar']);
    // Optional atoms, groups and what JavaScript reads otherwise end a run.
    expect(sequences('x\\s*yz')).toEqual(['yz']);
    expect(sequences('ab(c|d)ef[[:alpha:]]g')).toEqual(['ab']);
    expect(sequences('[^\\s]\\S[]a]q')).toEqual(['q']);
    expect(sequences('(?s)a.b')).toEqual(['a']);
    expect(sequences('[^a-f\\d]\\w\\.-')).toEqual(['[^a-f\\d]\\w\\.-']);
    // With flags iu JavaScript's \w also holds ſ and K: its negations are narrower than RE2's.
    expect(sequences('ab\\Wc[^\\w]de[\\W]fg')).toEqual(['ab']);
    expect(sequences('a|\\d\\d|(x)')).toEqual(['a', '\\d\\d', '']);
    expect(sequences('z'.repeat(40))).toEqual(['z'.repeat(MAX_SEQUENCE)]);
    expect(sequences('\\d{1000}')).toEqual(['\\d'.repeat(MAX_SEQUENCE)]);
  });

  it('folds the whole plan when the pattern turns case-insensitivity on', () => {
    expect(planRegex('(?i)parking', false)).toEqual(planLiteral('parking', true));
  });
});
