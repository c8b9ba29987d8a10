// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { editorStore } from '../store/editor.store.ts';
import { PanelBoundary } from './PanelBoundary.tsx';

let broken = true;
function Flaky() {
  if (broken) throw new Error('slot value has no type');
  return <div data-testid="flaky-ok">fine</div>;
}

afterEach(() => cleanup());

describe('PanelBoundary', () => {
  it('keeps a render error inside its panel, logs it, and renders the panel again on Try again', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    broken = true;
    render(
      <div>
        <PanelBoundary name="Inspector">
          <Flaky />
        </PanelBoundary>
        <div data-testid="neighbour">canvas</div>
      </div>,
    );
    const alert = screen.getByTestId('panel-error-inspector');
    expect(alert.textContent).toContain('The Inspector panel failed');
    expect(alert.textContent).toContain('slot value has no type');
    // The rest of the page is still there.
    expect(screen.getByTestId('neighbour').textContent).toBe('canvas');
    const log = editorStore.getState().log;
    expect(log[log.length - 1]?.message).toBe('the Inspector panel failed: slot value has no type');

    broken = false;
    fireEvent.click(screen.getByText('Try again'));
    expect(screen.getByTestId('flaky-ok').textContent).toBe('fine');
    expect(screen.queryByTestId('panel-error-inspector')).toBeNull();
    quiet.mockRestore();
  });
});
