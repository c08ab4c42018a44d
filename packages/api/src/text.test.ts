import { describe, expect, it } from 'vitest';
import { createPostInput } from './modules/posts/post.schema.js';
import { isAllowedText, notAllowedMessage, text } from './text.js';

const EMOJI = '👩🏽‍💻 🏳️‍🌈 ❤️ 🧊 e\u0301 नमस्ते 中文';

describe('text inputs', () => {
  it('refuses every C0/C1 control character except tab, line feed and carriage return', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const ch = String.fromCharCode(c);
      const control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
      const kept = ch === '\t' || ch === '\n' || ch === '\r';
      expect(isAllowedText(`a${ch}b`), `U+${c.toString(16).padStart(4, '0')}`).toBe(!control || kept);
    }
  });

  it('refuses lone surrogates but keeps pairs, joiners and variation selectors', () => {
    expect(isAllowedText('a\uD800b')).toBe(false);
    expect(isAllowedText('\uDFFF')).toBe(false);
    expect(isAllowedText('\uDE00\uD83D')).toBe(false); // a pair in the wrong order is two halves
    expect(isAllowedText(EMOJI)).toBe(true);
    expect(isAllowedText('\u200D\uFE0F\u00A0\u2028')).toBe(true);
  });

  it('names the field, and reports one issue however long the value', () => {
    const schema = text('Bio').max(10);
    const result = schema.safeParse(`${'x'.repeat(70_000)}\u0000`);
    expect(result.error?.issues).toEqual([expect.objectContaining({ message: notAllowedMessage('Bio') })]);
    expect(text('Bio', { error: 'Bio must be text' }).safeParse(5).error?.issues[0]?.message).toBe(
      'Bio must be text',
    );
  });

  it('passes emoji through the shared schemas byte for byte', () => {
    expect(createPostInput.parse({ content: EMOJI }).content).toBe(EMOJI);
    const refused = createPostInput.safeParse({ content: 'a\u0000b' });
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['content'],
      message: 'Post contains characters that are not allowed',
    });
  });
});
