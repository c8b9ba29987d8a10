// Log panel: the editor's own messages (opens, saves, refusals, import errors), newest last.
import { useEditor } from '../../store/editor.store.ts';

const TONE = { info: 'text-zinc-400', warn: 'text-amber-400', error: 'text-red-400' } as const;

export function LogPanel() {
  const log = useEditor((s) => s.log);
  if (log.length === 0) return <div className="p-2 text-xs text-zinc-500">Nothing logged yet.</div>;
  return (
    <div className="p-1 font-mono text-[11px]" data-testid="log-panel">
      {log.map((l, i) => (
        <div key={i} className={TONE[l.level]}>
          <span className="text-zinc-600">{new Date(l.ts).toLocaleTimeString()}</span> {l.message}
        </div>
      ))}
    </div>
  );
}
