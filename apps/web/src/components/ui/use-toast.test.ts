import { describe, expect, it } from 'vitest';
import {
  TOAST_DURATION,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  type ToastItem,
  type ToastState,
  toastReducer,
} from './use-toast';

const item = (id: string, extra: Partial<ToastItem> = {}): ToastItem => ({
  id,
  open: true,
  title: `Toast ${id}`,
  ...extra,
});

describe('toast reducer', () => {
  it('follows the constants of docs/web.md "Toasts"', () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_DURATION).toBe(5000);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });

  it('keeps at most one toast: a new one replaces the old', () => {
    let state: ToastState = { toasts: [] };
    state = toastReducer(state, { type: 'ADD_TOAST', toast: item('1') });
    state = toastReducer(state, { type: 'ADD_TOAST', toast: item('2', { variant: 'destructive' }) });
    expect(state.toasts).toHaveLength(1);
    expect(state.toasts[0]).toMatchObject({ id: '2', variant: 'destructive', open: true });
  });

  it('updates a toast by id', () => {
    const state = toastReducer(
      { toasts: [item('1')] },
      { type: 'UPDATE_TOAST', toast: { id: '1', title: 'New' } },
    );
    expect(state.toasts[0]?.title).toBe('New');
  });

  it('dismisses by closing, one or all', () => {
    const one = toastReducer({ toasts: [item('1')] }, { type: 'DISMISS_TOAST', toastId: '1' });
    expect(one.toasts[0]?.open).toBe(false);
    const other = toastReducer({ toasts: [item('1')] }, { type: 'DISMISS_TOAST', toastId: '9' });
    expect(other.toasts[0]?.open).toBe(true);
    const all = toastReducer({ toasts: [item('1')] }, { type: 'DISMISS_TOAST' });
    expect(all.toasts[0]?.open).toBe(false);
  });

  it('removes one or all', () => {
    expect(toastReducer({ toasts: [item('1')] }, { type: 'REMOVE_TOAST', toastId: '1' }).toasts).toEqual([]);
    expect(toastReducer({ toasts: [item('1')] }, { type: 'REMOVE_TOAST' }).toasts).toEqual([]);
  });

  it('does not mutate the previous state', () => {
    const before: ToastState = { toasts: [item('1')] };
    toastReducer(before, { type: 'ADD_TOAST', toast: item('2') });
    toastReducer(before, { type: 'DISMISS_TOAST' });
    expect(before.toasts).toEqual([item('1')]);
  });
});
