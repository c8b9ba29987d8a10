// The value viewer: one value as a JSON tree (expand/collapse, search that highlights matches and
// expands their parents, copy value, copy a node's JSON path). The visible tree is flattened into
// rows (jsonTree.ts) and only the rows on screen are in the DOM (@tanstack/react-virtual), so a
// 100,000-item list scrolls smoothly. `$ndarray` summaries are drawn by NdArrayView.
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { DebugDialog } from './DebugDialog.tsx';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronRight, Copy, Link, Search } from 'lucide-react';
import { Button } from '../ui/Button.tsx';
import { NdArrayView } from '../ui/NdArrayView.tsx';
import { ndInfoOf } from '../ui/ndarray.ts';
import {
  ROOT,
  allContainerPaths,
  containerSummary,
  flattenTree,
  leafText,
  searchTree,
  valueAt,
  type TreeRow,
} from './jsonTree.ts';
import { closeViewer, useViewer } from './viewer.store.ts';

const ROW_H = 18;
const ND_ROW_H = 32;
/** Values with at most this many containers open fully at first. */
const OPEN_ALL_BELOW = 200;

/** Copies text (Clipboard API, else a hidden textarea); resolves whether it worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}

function stringify(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

const TONE: Record<TreeRow['kind'], string> = {
  string: 'text-emerald-300',
  number: 'text-sky-300',
  boolean: 'text-amber-300',
  null: 'text-zinc-500',
  other: 'text-zinc-400',
  object: 'text-zinc-500',
  array: 'text-zinc-500',
  ndarray: 'text-sky-300',
};

const Row = memo(function Row({
  row,
  match,
  current,
  selected,
  onToggle,
  onSelect,
  onCopyPath,
}: {
  row: TreeRow;
  match: boolean;
  current: boolean;
  selected: boolean;
  onToggle: (path: string) => void;
  onSelect: (path: string) => void;
  onCopyPath: (path: string) => void;
}) {
  const bg = current
    ? 'bg-amber-500/30'
    : match
      ? 'bg-amber-500/15'
      : selected
        ? 'bg-sky-900/40'
        : 'hover:bg-zinc-800/60';
  return (
    <div
      data-testid="viewer-row"
      data-path={row.path}
      data-match={match ? 'true' : 'false'}
      className={`group flex h-full items-center gap-1 pr-2 font-mono text-[11px] whitespace-nowrap ${bg}`}
      style={{ paddingLeft: 4 + row.depth * 14 }}
      onClick={() => onSelect(row.path)}
      onDoubleClick={() => row.expandable && onToggle(row.path)}
    >
      <span className="w-3 shrink-0 text-zinc-500">
        {row.expandable && (
          <button
            type="button"
            data-testid="viewer-toggle"
            aria-label={row.expanded ? 'collapse' : 'expand'}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(row.path);
            }}
          >
            {row.expanded ? <ChevronDown size={11} /> : <ChevronRight size={11} />}
          </button>
        )}
      </span>
      {row.label !== null && (
        <span className={typeof row.label === 'number' ? 'text-zinc-500' : 'text-violet-300'}>
          {typeof row.label === 'number' ? row.label : JSON.stringify(row.label).slice(1, -1)}:
        </span>
      )}
      {row.kind === 'ndarray' ? (
        <NdArrayView value={row.value} size="thumb" />
      ) : row.kind === 'object' || row.kind === 'array' ? (
        <span className={TONE[row.kind]}>{containerSummary(row)}</span>
      ) : (
        <span className={`min-w-0 truncate ${TONE[row.kind]}`} title={leafText(row.value)}>
          {leafText(row.value)}
        </span>
      )}
      <button
        type="button"
        data-testid="viewer-copy-row-path"
        title={`copy path ${row.path}`}
        className="ml-1 hidden shrink-0 text-zinc-500 group-hover:inline hover:text-zinc-200"
        onClick={(e) => {
          e.stopPropagation();
          onCopyPath(row.path);
        }}
      >
        <Link size={10} />
      </button>
    </div>
  );
});

function Tree({ value }: { value: unknown }) {
  const [expanded, setExpanded] = useState<Set<string>>(() => {
    const all = allContainerPaths(value, OPEN_ALL_BELOW + 1);
    return all.size <= OPEN_ALL_BELOW ? all : new Set([ROOT]);
  });
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const [matchAt, setMatchAt] = useState(0);
  const [selected, setSelected] = useState<string>(ROOT);
  const [copied, setCopied] = useState<string | null>(null);
  const search = useMemo(() => searchTree(value, deferred), [value, deferred]);
  const matchSet = useMemo(() => new Set(search.matches), [search]);
  const shownExpanded = useMemo(() => {
    if (search.ancestors.size === 0) return expanded;
    const s = new Set(expanded);
    for (const a of search.ancestors) s.add(a);
    return s;
  }, [expanded, search]);
  const rows = useMemo(() => flattenTree(value, shownExpanded), [value, shownExpanded]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]?.kind === 'ndarray' ? ND_ROW_H : ROW_H),
    overscan: 12,
  });
  const currentMatch = search.matches[Math.min(matchAt, search.matches.length - 1)];
  useEffect(() => setMatchAt(0), [deferred]);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  // Moving to a match (typing, Enter, ↑/↓) selects it and scrolls it into view; expanding or
  // collapsing afterwards leaves the selection alone.
  useEffect(() => {
    if (currentMatch === undefined) return;
    const i = rowsRef.current.findIndex((r) => r.path === currentMatch);
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'center' });
    setSelected(currentMatch);
  }, [currentMatch, virtualizer]);
  const toggle = useCallback(
    (path: string) =>
      setExpanded((prev) => {
        const next = new Set(prev);
        // A branch opened by the search closes on a click too.
        if (prev.has(path) || search.ancestors.has(path)) next.delete(path);
        else next.add(path);
        return next;
      }),
    [search],
  );
  const flash = (text: string) => {
    setCopied(text);
    setTimeout(() => setCopied((c) => (c === text ? null : c)), 2500);
  };
  const copyPath = useCallback(async (path: string) => {
    setSelected(path);
    if (await copyText(path)) flash(`copied ${path}`);
  }, []);
  const copyValue = async () => {
    if (await copyText(stringify(valueAt(value, selected)))) flash(`copied value of ${selected}`);
  };
  const step = (d: number) =>
    search.matches.length > 0 && setMatchAt((i) => (i + d + search.matches.length) % search.matches.length);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-1">
      <div className="flex items-center gap-1">
        <div className="flex min-w-0 flex-1 items-center gap-1 rounded border border-zinc-700 bg-zinc-950 px-1">
          <Search size={11} className="text-zinc-500" />
          <input
            data-testid="viewer-search"
            className="min-w-0 flex-1 bg-transparent py-0.5 text-xs text-zinc-200 outline-none"
            placeholder="Search keys and values"
            value={query}
            autoFocus
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') step(e.shiftKey ? -1 : 1);
            }}
          />
          <span className="text-[10px] text-zinc-500" data-testid="viewer-match-count">
            {deferred.trim()
              ? `${search.matches.length === 0 ? 0 : Math.min(matchAt, search.matches.length - 1) + 1} / ${search.matches.length}${search.truncated ? '+' : ''}`
              : ''}
          </span>
        </div>
        <Button
          variant="ghost"
          onClick={() => step(-1)}
          disabled={search.matches.length === 0}
          title="Previous match"
        >
          ↑
        </Button>
        <Button
          variant="ghost"
          onClick={() => step(1)}
          disabled={search.matches.length === 0}
          title="Next match (Enter)"
        >
          ↓
        </Button>
        <Button
          variant="ghost"
          data-testid="viewer-expand-all"
          onClick={() => setExpanded(allContainerPaths(value))}
          title="Expand every branch (up to 50,000)"
        >
          Expand all
        </Button>
        <Button
          variant="ghost"
          data-testid="viewer-collapse"
          onClick={() => setExpanded(new Set([ROOT]))}
          title="Collapse to the top level"
        >
          Collapse
        </Button>
      </div>
      <div className="flex items-center gap-1 text-[11px]">
        <span className="text-zinc-500">path</span>
        <code data-testid="viewer-selected-path" className="min-w-0 flex-1 truncate text-zinc-200">
          {selected}
        </code>
        <span data-testid="viewer-copied" className="truncate text-emerald-400">
          {copied ?? ''}
        </span>
        <Button
          data-testid="viewer-copy-path"
          onClick={() => void copyPath(selected)}
          title="Copy the JSON path"
        >
          <Link size={11} /> Copy path
        </Button>
        <Button
          data-testid="viewer-copy-value"
          onClick={() => void copyValue()}
          title="Copy the value as JSON"
        >
          <Copy size={11} /> Copy value
        </Button>
      </div>
      <div
        ref={scroller}
        data-testid="viewer-scroller"
        data-rows={rows.length}
        className="min-h-0 flex-1 overflow-auto rounded border border-zinc-800 bg-zinc-950"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            return (
              <div
                key={row.path}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: item.size,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <Row
                  row={row}
                  match={matchSet.has(row.path)}
                  current={row.path === currentMatch}
                  selected={row.path === selected}
                  onToggle={toggle}
                  onSelect={setSelected}
                  onCopyPath={(p) => void copyPath(p)}
                />
              </div>
            );
          })}
        </div>
      </div>
      <div className="text-[10px] text-zinc-500">
        {rows.length.toLocaleString()} rows · click a row to select it, double-click to expand · Enter: next
        match
      </div>
    </div>
  );
}

export function ValueViewer() {
  const open = useViewer((s) => s.open);
  const title = useViewer((s) => s.title);
  const note = useViewer((s) => s.note);
  const status = useViewer((s) => s.status);
  const value = useViewer((s) => s.value);
  const serial = useViewer((s) => s.serial);
  if (!open) return null;
  return (
    <DebugDialog
      label={`value of ${title}`}
      testId="value-viewer"
      status={status}
      closeTestId="viewer-close"
      onClose={closeViewer}
      layer="z-[60]"
      header={
        <>
          <span className="shrink-0 font-semibold text-zinc-100" data-testid="viewer-title">
            {title}
          </span>
          <span className="truncate text-[10px] text-zinc-500">{note}</span>
        </>
      }
    >
      {status === 'loading' && <div className="text-zinc-500">Loading the full value…</div>}
      {status === 'error' && <div className="text-red-400">{note}</div>}
      {status === 'ready' && ndInfoOf(value) && <NdArrayView value={value} size="full" />}
      {status === 'ready' && <Tree key={serial} value={value} />}
    </DebugDialog>
  );
}
