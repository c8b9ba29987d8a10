// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';

afterEach(cleanup);

function Probe() {
  const ready = useAfterFirstPaint();
  return <span data-testid="probe">{ready ? 'after' : 'first'}</span>;
}

describe('useAfterFirstPaint', () => {
  it('is false on the first render, then true after a frame and stays true', async () => {
    const { rerender } = render(<Probe />);
    expect(screen.getByTestId('probe').textContent).toBe('first');
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('after'));
    rerender(<Probe />);
    expect(screen.getByTestId('probe').textContent).toBe('after');
  });
});
