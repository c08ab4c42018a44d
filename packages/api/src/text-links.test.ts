import { describe, expect, it } from 'vitest';
import { foldTag, isTag, mentionAt, mentionedUsernames, tagsOf, tokenize } from './text-links.js';

describe('text links', () => {
  it('finds mentions, not e-mail addresses or over-long names', () => {
    expect(mentionedUsernames('hi @Alice and @bob_2, mail me@example.com or @@x @ab')).toEqual([
      'alice',
      'bob_2',
    ]);
    expect(mentionedUsernames(`@${'a'.repeat(31)}`)).toEqual([]);
    expect(mentionedUsernames('(@carol), @dave. @erin!')).toEqual(['carol', 'dave', 'erin']);
    expect(mentionedUsernames('@alice @ALICE @Alice')).toEqual(['alice']);
  });

  it('caps mentions and tags', () => {
    const many = Array.from({ length: 15 }, (_, i) => `@user${i}`).join(' ');
    expect(mentionedUsernames(many)).toHaveLength(10);
    const tags = Array.from({ length: 30 }, (_, i) => `#t${i}`).join(' ');
    expect(tagsOf(tags)).toHaveLength(20);
  });

  it('finds tags in any script, folded, with a letter in them', () => {
    expect(tagsOf('#Cubes #CUBES #café #Ünïcode #日本語 #under_score #1 #42abc x#no a&#38;')).toEqual([
      'cubes',
      'café',
      'ünïcode',
      '日本語',
      'under_score',
      '42abc',
    ]);
    expect(tagsOf('#ｃｕｂｅｓ')).toEqual(['cubes']); // full-width letters fold (NFKC)
    expect(tagsOf(`#${'a'.repeat(65)}`)).toEqual([]);
    expect(tagsOf('#🧊 #a🧊')).toEqual(['a']);
    expect(foldTag('ΣΑΣ')).toBe('σας');
    expect(isTag('cubes')).toBe(true);
    expect(isTag('12')).toBe(false);
    expect(isTag('a b')).toBe(false);
    expect(isTag('')).toBe(false);
  });

  it('tokenizes so that the values give the text back', () => {
    const text = 'Hello @alice, see #Cubes!\nand #日本 👩🏽‍💻 @bob';
    const tokens = tokenize(text);
    expect(tokens.map((t) => t.value).join('')).toBe(text);
    expect(tokens.filter((t) => t.type !== 'text')).toEqual([
      { type: 'mention', value: '@alice', username: 'alice' },
      { type: 'tag', value: '#Cubes', tag: 'cubes' },
      { type: 'tag', value: '#日本', tag: '日本' },
      { type: 'mention', value: '@bob', username: 'bob' },
    ]);
  });

  it('survives hostile input', () => {
    const huge = `${'#a'.repeat(35_000)}@${'b'.repeat(70_000)}`;
    const started = Date.now();
    expect(tagsOf(huge)).toEqual(['a']);
    expect(
      tokenize(huge)
        .map((t) => t.value)
        .join(''),
    ).toBe(huge);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('finds the mention being typed', () => {
    expect(mentionAt('hi @al', 6)).toEqual({ start: 3, query: 'al' });
    expect(mentionAt('hi @', 4)).toEqual({ start: 3, query: '' });
    expect(mentionAt('me@al', 5)).toBeNull();
    expect(mentionAt('hi @al there', 12)).toBeNull();
  });
});
