// The error view of a saved graph file that does not read as a graph (a typo, a truncated write):
// what is wrong and where (line, column), and the file's text read-only with the error line marked.
// It covers the canvas of that tab (whose empty graph is not the file's content and refuses edits);
// Reload reads the file again, and so does any change in workspace/graphs (graphsSync.ts), so
// fixing the file in a text editor opens it here as a graph.
import { useEffect, useMemo, useRef } from 'react';
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { activeTab } from '../store/doc.slice.ts';
import { editorStore, useEditor } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { rereadUnreadable } from './documents.ts';
import { whereOf } from './savedGraph.ts';

/** Lines shown around the first error of a very long file (each line is an element). */
const WINDOW_LINES = 1500;

export function UnreadableFileView() {
  const tab = useEditor(activeTab);
  const file = tab?.unreadable ?? null;
  const first = file?.issues[0];
  const errorLine = first?.line;
  const lines = useMemo(() => (file ? file.text.split('\n') : []), [file]);
  const from = errorLine !== undefined ? Math.max(0, errorLine - 1 - WINDOW_LINES) : 0;
  const to = Math.min(lines.length, (errorLine ?? 0) + WINDOW_LINES);
  const marked = useRef<HTMLDivElement>(null);
  // A block body: Chromium's scrollIntoView returns a promise, which React would take for a cleanup.
  useEffect(() => {
    marked.current?.scrollIntoView({ block: 'center' });
  }, [file]);
  if (!tab || !file) return null;
  const id = tab.savedId ?? tab.title;
  const gutter = String(to).length;
  return (
    <div
      className="absolute inset-0 z-20 flex flex-col bg-zinc-950 text-zinc-200"
      data-testid="unreadable-view"
    >
      <div className="border-b border-zinc-800 px-4 py-3">
        <div className="flex items-center gap-2 text-sm">
          <AlertTriangle size={15} className="shrink-0 text-red-400" />
          <span>
            <b className="font-mono">{id}.json</b> does not read as a graph
          </span>
          <Button
            className="ml-auto"
            data-testid="unreadable-reload"
            title="Read the file again (after fixing it in a text editor)"
            onClick={() => void rereadUnreadable(tab.id, editorStore)}
          >
            <RefreshCw size={11} /> Reload
          </Button>
        </div>
        <ul className="mt-2 space-y-0.5 text-xs" data-testid="unreadable-errors">
          {file.issues.slice(0, 5).map((i, k) => (
            <li key={k}>
              <span className="font-mono text-amber-300" data-testid="unreadable-where">
                {whereOf(i)}
              </span>{' '}
              <span className="text-zinc-200">{i.message}</span>
            </li>
          ))}
          {file.issues.length > 5 && (
            <li className="text-zinc-500">… and {file.issues.length - 5} more (see Issues)</li>
          )}
        </ul>
        <p className="mt-2 text-[11px] text-zinc-400">
          The file is left as it is: nothing in this tab can be edited or saved over it. Fix it in a text
          editor (<span className="font-mono">workspace/graphs/{id}.json</span>); this view reads it again
          when it changes.
        </p>
      </div>
      <div
        className="min-h-0 flex-1 overflow-auto py-2 font-mono text-xs leading-5"
        data-testid="unreadable-text"
      >
        {from > 0 && <div className="px-4 text-zinc-600">… {from} lines above not shown</div>}
        {lines.slice(from, to).map((text, k) => {
          const n = from + k + 1;
          const isError = n === errorLine;
          return (
            <div
              key={n}
              ref={isError ? marked : undefined}
              data-testid={isError ? 'unreadable-error-line' : undefined}
              className={`flex whitespace-pre ${isError ? 'bg-red-950/70' : ''}`}
            >
              <span className="w-12 shrink-0 pr-3 text-right text-zinc-600 select-none">
                {String(n).padStart(gutter)}
              </span>
              {isError && first?.column !== undefined ? (
                <MarkedLine text={text} column={first.column} />
              ) : (
                <span>{text || ' '}</span>
              )}
            </div>
          );
        })}
        {to < lines.length && (
          <div className="px-4 text-zinc-600">… {lines.length - to} lines below not shown</div>
        )}
        {file.textTruncated && (
          <div className="px-4 text-zinc-500">
            (the file is longer; only its first 1,000,000 characters are shown)
          </div>
        )}
      </div>
    </div>
  );
}

/** The error line with the character at `column` (1-based) marked; past the end, a marked blank. */
function MarkedLine({ text, column }: { text: string; column: number }) {
  const at = Math.min(Math.max(column - 1, 0), text.length);
  return (
    <span>
      {text.slice(0, at)}
      <span className="rounded-sm bg-red-600 text-white" data-testid="unreadable-error-char">
        {text[at] ?? ' '}
      </span>
      {text.slice(at + 1)}
    </span>
  );
}
