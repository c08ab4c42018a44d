import { describe, expect, it } from 'vitest';
import { pieces } from './offline.provider.js';
import { refusesTools } from './openai.provider.js';
import { type ChatTurn, estimateTokens, redactSecrets, titleFromWords, trimHistory } from './provider.js';

const system: ChatTurn = { role: 'system', content: 'You are Cubey.' };
const turn = (role: ChatTurn['role'], chars: number, tag: string): ChatTurn => ({
  role,
  content: `${tag}${'x'.repeat(chars - tag.length)}`,
});

describe('trimHistory', () => {
  it('keeps the system prompt and the newest turns that fit, in order', () => {
    const history = [turn('user', 400, 'a'), turn('assistant', 400, 'b'), turn('user', 400, 'c')];
    const budget = estimateTokens(system) + 2 * estimateTokens(history[2]!);
    const kept = trimHistory(system, history, budget);
    expect(kept.map((t) => t.content[0])).toEqual(['Y', 'b', 'c']);
  });

  it('cuts the newest message from its start when it alone is over the budget', () => {
    const kept = trimHistory(system, [turn('user', 10_000, 'start')], 200);
    expect(kept[0]).toBe(system);
    expect(kept).toHaveLength(2);
    expect(kept[1]!.content.length).toBeLessThan(10_000);
    expect(kept[1]!.content.startsWith('start')).toBe(false);
    expect(kept.reduce((n, t) => n + estimateTokens(t), 0)).toBeLessThanOrEqual(200);
  });
});

describe('titleFromWords', () => {
  it('takes up to six words and 60 characters, without Markdown marks', () => {
    expect(titleFromWords('**How** do I post a picture of my cube?')).toBe('How do I post a picture');
    expect(titleFromWords('x'.repeat(100))).toHaveLength(60);
    expect(titleFromWords('   ')).toBe('New chat');
    expect(titleFromWords('🧊🧊 cubes')).toBe('🧊🧊 cubes');
  });
});

describe('offline pieces', () => {
  it('splits an answer into words that join back to it exactly', () => {
    const answer = 'Hi there!\n\n- one  two\n\ttabbed 🧊';
    expect(pieces(answer).join('')).toBe(answer);
    expect(pieces(answer)[0]).toBe('Hi ');
  });
});

describe('redactSecrets', () => {
  const key = 'sk-proj-Q3x9LmZ2vB7tR4nK8wYc';
  it('takes out the key, any piece of it, and anything shaped like a credential', () => {
    const cases: [string, string][] = [
      [`Incorrect API key provided: ${key}.`, 'Incorrect API key provided: [redacted].'],
      ['Incorrect API key provided: sk-proj-****************8wYc.', 'Incorrect API key provided: [redacted]'],
      ['key ending in ****8wYc is invalid', 'key ending in [redacted] is invalid'],
      [`got header "Bearer ${key}"`, 'got header "Bearer [redacted]"'],
      ['Authorization: Bearer abc.def.ghi', 'Authorization: Bearer [redacted]'],
      ['api_key=hunter2hunter2 refused', 'api_key=[redacted] refused'],
      ['someone else’s sk-ant-api03-XYZ leaked', 'someone else’s [redacted] leaked'],
      ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [redacted]'],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text, [key]), text).toBe(expected);
  });

  it('leaves ordinary words alone, with or without a key', () => {
    const text = 'The model is overloaded: 4096 tokens max, basic tier, try again later';
    expect(redactSecrets(text, [key])).toBe(text);
    expect(redactSecrets(text, [undefined])).toBe(text);
    expect(redactSecrets('Bearer hunter2', [])).toBe('Bearer [redacted]');
  });
});

describe('refusesTools', () => {
  it('reads the errors Ollama, vLLM and llama.cpp give a model without tools, and nothing else', () => {
    expect(refusesTools(400, 'registry.ollama.ai/library/gemma:2b does not support tools')).toBe(true);
    expect(
      refusesTools(
        400,
        '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      ),
    ).toBe(true);
    expect(refusesTools(500, 'tools param requires --jinja flag')).toBe(true);
    expect(refusesTools(400, 'This model does not support function calling')).toBe(true);
    expect(refusesTools(401, 'Invalid API key for tools')).toBe(false);
    expect(refusesTools(429, 'Rate limit reached for tool use')).toBe(false);
    expect(refusesTools(503, 'The model is overloaded')).toBe(false);
    expect(refusesTools(400, 'max_tokens is too large')).toBe(false);
  });
});
