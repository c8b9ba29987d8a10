// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { editorStore } from '../store/editor.store.ts';
import { useMenu } from './useDismiss.ts';

function Menu() {
  const { open, toggle, menu, trigger } = useMenu();
  return (
    <div>
      <button ref={trigger} data-testid="trigger" onClick={toggle}>
        Menu
      </button>
      {open && (
        <div ref={menu} data-testid="menu">
          <button data-testid="one">one</button>
          <button data-testid="two" disabled>
            two
          </button>
          <button data-testid="three">three</button>
        </div>
      )}
      <p data-testid="outside">elsewhere</p>
    </div>
  );
}

const menuShown = () => screen.queryByTestId('menu') !== null;

afterEach(() => {
  cleanup();
  editorStore.getState().setDialog(null);
  editorStore.getState().setOverlay(null);
});

describe('useDismiss', () => {
  it('closes on Escape and gives the focus back to its button', () => {
    render(<Menu />);
    fireEvent.click(screen.getByTestId('trigger'));
    expect(menuShown()).toBe(true);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(menuShown()).toBe(false);
    expect(document.activeElement).toBe(screen.getByTestId('trigger'));
  });

  it('closes on a press outside, not on one inside or on its own button', () => {
    render(<Menu />);
    fireEvent.click(screen.getByTestId('trigger'));
    fireEvent.pointerDown(screen.getByTestId('one'));
    expect(menuShown()).toBe(true);
    fireEvent.pointerDown(screen.getByTestId('trigger'));
    expect(menuShown()).toBe(true);
    fireEvent.pointerDown(screen.getByTestId('outside'));
    expect(menuShown()).toBe(false);
  });

  it('closes when a dialog or an overlay opens', () => {
    render(<Menu />);
    fireEvent.click(screen.getByTestId('trigger'));
    act(() => editorStore.getState().setDialog({ kind: 'saveAs', tabId: 't' }));
    expect(menuShown()).toBe(false);
    fireEvent.click(screen.getByTestId('trigger'));
    act(() => editorStore.getState().setOverlay('cheatsheet'));
    expect(menuShown()).toBe(false);
  });

  it('under a modal dialog it leaves Escape and presses to the dialog', () => {
    render(<Menu />);
    fireEvent.click(screen.getByTestId('trigger'));
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    document.body.append(dialog);
    fireEvent.keyDown(window, { key: 'Escape' });
    fireEvent.pointerDown(dialog);
    expect(menuShown()).toBe(true);
    dialog.remove();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(menuShown()).toBe(false);
  });

  it('the arrow keys walk the enabled items, round the ends', () => {
    render(<Menu />);
    fireEvent.click(screen.getByTestId('trigger'));
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTestId('one'));
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTestId('three'));
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTestId('one'));
    fireEvent.keyDown(window, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByTestId('three'));
  });
});
