import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Handle, TagName } from './handle';

describe('Handle', () => {
  it('writes @username left to right inside a box that keeps the page direction', () => {
    render(
      <div dir="rtl">
        <Handle username="chen" className="text-xs" />
      </div>,
    );
    const name = screen.getByText('@chen');
    expect(name.getAttribute('dir')).toBe('ltr');
    // The outer box carries the classes and no direction of its own: as a list row's line it
    // still aligns to the Arabic page's start.
    const box = name.parentElement!;
    expect(box.className).toBe('text-xs');
    expect(box.hasAttribute('dir')).toBe(false);
  });
});

describe('TagName', () => {
  it('gives #tag its own direction, for an Arabic tag in the English app and the other way', () => {
    render(<TagName className="font-medium">مكعبات</TagName>);
    const tag = screen.getByText('#مكعبات');
    expect(tag.getAttribute('dir')).toBe('auto');
    expect(tag.className).toBe('font-medium');
  });
});
