import { describe, expect, it } from 'vitest';
import { formatFullDate, formatRelativeTime } from './relative-time';

const now = new Date('2025-06-15T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const sec = 1000;
const min = 60 * sec;
const hour = 60 * min;
const day = 24 * hour;

describe('formatRelativeTime', () => {
  it.each([
    [0, 'just now'],
    [59 * sec, 'just now'],
    [60 * sec, '1 minute ago'],
    [119 * sec, '1 minute ago'],
    [2 * min, '2 minutes ago'],
    [44 * min + 59 * sec, '44 minutes ago'],
    [45 * min, 'about 1 hour ago'],
    [89 * min, 'about 1 hour ago'],
    [90 * min, '2 hours ago'],
    [5 * hour, '5 hours ago'],
    [23 * hour + 59 * min, '23 hours ago'],
    [day, '1 day ago'],
    [2 * day, '2 days ago'],
    [29 * day, '29 days ago'],
    [30 * day, 'about 1 month ago'],
    [59 * day, 'about 1 month ago'],
    [60 * day, '2 months ago'],
    [364 * day, '11 months ago'],
    [365 * day, 'about 1 year ago'],
    [729 * day, 'about 1 year ago'],
    [730 * day, '2 years ago'],
    [11 * 365 * day, '11 years ago'],
  ])('%d ms ago → %s', (elapsed, expected) => {
    expect(formatRelativeTime(ago(elapsed), now)).toBe(expected);
  });

  it('treats a time in the future (clock skew) as just now', () => {
    expect(formatRelativeTime(new Date(now.getTime() + 5 * min), now)).toBe('just now');
  });

  it('accepts ISO strings, numbers and a numeric now', () => {
    expect(formatRelativeTime('2025-06-15T11:00:00Z', now.getTime())).toBe('about 1 hour ago');
    expect(formatRelativeTime(now.getTime() - 3 * day, now)).toBe('3 days ago');
  });

  it('returns an empty string for an invalid date', () => {
    expect(formatRelativeTime('not a date', now)).toBe('');
    expect(formatFullDate('not a date')).toBe('');
  });

  it('gives a full date for titles', () => {
    expect(formatFullDate(now)).toMatch(/2025/);
  });
});
