import { describe, expect, it } from 'vitest';
import { summaryTitle } from './cubey-chats.title.js';

describe('summaryTitle', () => {
  it("keeps the question's key words, the first capitalised", () => {
    expect(summaryTitle('What is trending today in the cube world?', 'Trending…')).toBe(
      'Trending today cube world',
    );
    expect(summaryTitle('how do I post?', '**Posting**')).toBe('Post');
    expect(summaryTitle('🧊 élan vital of cubes', '')).toBe('Élan vital cubes');
  });

  it("falls back to the answer's first line (no mentions), then to New chat", () => {
    expect(summaryTitle('what is it?', 'Hi @alice! Cubes are great')).toBe('Hi Cubes great');
    expect(summaryTitle('???', '')).toBe('New chat');
  });

  it('leaves code out and stays short', () => {
    expect(summaryTitle('```js\nconst a = 1;\n``` why does this fail', '')).toBe('Fail');
    expect(summaryTitle('x'.repeat(200), '').length).toBeLessThanOrEqual(60);
  });
});
