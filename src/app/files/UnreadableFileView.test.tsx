// @vitest-environment happy-dom
// The error view of a file that does not read as a graph: the error with its place, the text with
// the error line and character marked; and the tab refuses edits and saves.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { emptyGraph } from '../../domain/graph/graph.schema.ts';
import { editorStore } from '../store/editor.store.ts';
import { UnreadableFileView } from './UnreadableFileView.tsx';
import type { UnreadableFile } from './savedGraph.ts';

const TEXT = '{\n  "name": "Grid Navigator,\n  "nodes": []\n}\n';
const FILE: UnreadableFile = {
  issues: [
    {
      code: 'invalid-json',
      severity: 'error',
      path: '$',
      message: 'invalid JSON at typo_graph:2:27: control character in string (escape it)',
      line: 2,
      column: 27,
    },
  ],
  text: TEXT,
  textTruncated: false,
  etag: 'abc',
};

beforeEach(() => {
  editorStore.setState({ tabs: [], activeTabId: null });
  editorStore
    .getState()
    .openTab({ graph: emptyGraph('typo_graph'), savedId: 'typo_graph', unreadable: FILE });
});
afterEach(() => cleanup());

describe('UnreadableFileView', () => {
  it('says what is wrong and where, and shows the text read-only with the error marked', () => {
    render(<UnreadableFileView />);
    expect(screen.getByTestId('unreadable-view').textContent).toContain(
      'typo_graph.json does not read as a graph',
    );
    expect(screen.getByTestId('unreadable-where').textContent).toBe('line 2, column 27');
    expect(screen.getByTestId('unreadable-error-line').textContent).toContain('"name": "Grid Navigator,');
    // Column 27 is past the line's last character (the string ran into the line end): a marked blank.
    expect(screen.getByTestId('unreadable-error-char').textContent).toBe(' ');
    expect(screen.getByTestId('unreadable-text').textContent).toContain('"nodes": []');
    expect(
      screen.getByTestId('unreadable-text').querySelector('textarea, input, [contenteditable]'),
    ).toBeNull();
  });

  it('the tab refuses every edit', () => {
    const r = editorStore.getState().edit((g) => ({ ok: true, graph: { ...g, description: 'x' } }));
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(/typo_graph could not be read as a graph/);
    expect(editorStore.getState().tabs[0]!.graph.description).toBe('');
  });
});
