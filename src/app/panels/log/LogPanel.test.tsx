// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { HANDLERS } from '../../live/handlers.ts';
import { ev } from '../../live/testEvents.testutil.ts';
import { initialRunState, runStore } from '../../run/run.store.ts';
import { editorStore } from '../../store/editor.store.ts';
import { LogPanel } from './LogPanel.tsx';

afterEach(() => {
  cleanup();
  runStore.setState(initialRunState());
});

const fire = (seq: number, node_id: string, step: number, error: string | null = null) =>
  HANDLERS.exec_log(
    ev('exec_log', seq, {
      step,
      node_id,
      node_type: 'llmCall',
      node_label: node_id.toUpperCase(),
      duration_ms: seq * 10,
      error,
    }),
    runStore,
  );

describe('LogPanel', () => {
  it('shows the editor log until a run logs, then the run log newest first with node, step, duration, error', () => {
    editorStore.getState().addLog('info', 'opened graph demo');
    render(<LogPanel />);
    expect(screen.getByTestId('log-panel').textContent).toContain('opened graph demo');
    act(() => {
      fire(1, 'env', 1);
      fire(2, 'llm', 1, 'rate limited');
    });
    const rows = screen.getAllByTestId('run-log-line');
    expect(rows.map((r) => r.getAttribute('data-node'))).toEqual(['llm', 'env']);
    expect(rows[0]?.textContent).toContain('LLM');
    expect(rows[0]?.textContent).toContain('20 ms');
    expect(rows[0]?.textContent).toContain('rate limited');
    expect(rows[1]?.textContent).not.toContain('rate limited');
  });

  it('errors only hides the fine fires; a node name focuses that node', () => {
    act(() => {
      fire(1, 'env', 1);
      fire(2, 'llm', 2, 'boom');
    });
    render(<LogPanel />);
    fireEvent.click(screen.getByTestId('log-errors-only'));
    const rows = screen.getAllByTestId('run-log-line');
    expect(rows).toHaveLength(1);
    fireEvent.click(screen.getByText('LLM'));
    expect(editorStore.getState().focusRequest?.ids).toEqual(['llm']);
    fireEvent.click(screen.getByTestId('log-view-editor'));
    expect(screen.queryByTestId('run-log')).toBeNull();
  });

  it('keeps only a screenful of its 500 lines in the page, newest first', () => {
    act(() => {
      for (let seq = 1; seq <= 600; seq++) fire(seq, `n${seq}`, seq);
    });
    render(<LogPanel />);
    expect(screen.getByTestId('run-log').getAttribute('data-count')).toBe('500');
    const rows = screen.getAllByTestId('run-log-line');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(80);
    expect(rows[0]?.getAttribute('data-node')).toBe('n600');
  });
});
