/**
 * The shared tab bar: a named tablist, tabs by their labels, the chosen panel named by its tab,
 * arrow keys moving and choosing, and the caller told the typed value.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Tabs } from './tabs';

type Kind = 'all' | 'users' | 'posts';

function Harness({ onChange }: { onChange: (kind: Kind) => void }) {
  const [kind, setKind] = useState<Kind>('all');
  return (
    <Tabs
      label="Result kinds"
      variant="pill"
      value={kind}
      onValueChange={(next) => {
        onChange(next);
        setKind(next);
      }}
      items={[
        { value: 'all', label: 'All', panel: <a href="#all">first of all</a> },
        { value: 'users', label: 'Users', panel: <p>the users</p> },
        { value: 'posts', label: 'Posts', panel: <p>the posts</p> },
      ]}
    />
  );
}

describe('Tabs', () => {
  it('keeps the tab roles and names, and moves with the arrow keys', async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const list = screen.getByRole('tablist', { name: 'Result kinds' });
    expect(list.querySelectorAll('[role="tab"]')).toHaveLength(3);
    const all = screen.getByRole('tab', { name: 'All' });
    expect(all.getAttribute('aria-selected')).toBe('true');
    const panel = screen.getByRole('tabpanel', { name: 'All' });
    expect(panel.textContent).toBe('first of all');
    // Full of links: the panel takes no tab stop of its own.
    expect(panel.getAttribute('tabindex')).toBe('-1');

    all.focus();
    fireEvent.keyDown(all, { key: 'ArrowRight' });
    const users = screen.getByRole('tab', { name: 'Users' });
    // Radix moves the focus a task later.
    await waitFor(() => expect(document.activeElement).toBe(users));
    expect(users.getAttribute('aria-selected')).toBe('true');
    expect(onChange).toHaveBeenLastCalledWith('users');
    expect(screen.getByRole('tabpanel', { name: 'Users' }).textContent).toBe('the users');
    expect(screen.queryByRole('tabpanel', { name: 'All' })).toBeNull();

    fireEvent.keyDown(users, { key: 'End' });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('posts'));
    expect(screen.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected')).toBe('true');
  });

  it('chooses a tab on a click, uncontrolled from its default', () => {
    render(
      <Tabs
        label="Profile sections"
        defaultValue="media"
        items={[
          { value: 'posts', label: 'Posts', panel: <p>posts</p> },
          { value: 'media', label: 'Media', panel: <p>media</p> },
        ]}
      />,
    );
    expect(screen.getByRole('tabpanel', { name: 'Media' }).textContent).toBe('media');
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Posts' }), { button: 0 });
    expect(screen.getByRole('tabpanel', { name: 'Posts' }).textContent).toBe('posts');
  });
});
