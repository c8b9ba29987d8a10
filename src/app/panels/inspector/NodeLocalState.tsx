// The selected node's local state (what its handler keeps between fires, checkpointed: docs/architecture.md "Run state and durability") in
// the node inspector: live during a run, the inspected step's while the timeline inspects one.
import { useNodeLocalState } from '../../run/nodeLocalState.ts';

/** Longer values are cut here (the full value stays in the run's snapshots). */
const MAX_CHARS = 20_000;

function pretty(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

export function NodeLocalState({ nodeId }: { nodeId: string }) {
  const shown = useNodeLocalState(nodeId);
  if (!shown) return null;
  return (
    <div data-testid="node-local-state" data-step={shown.step} data-inspecting={String(shown.inspecting)}>
      <div className="mt-2 mb-1 flex items-baseline gap-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Local state
        <span
          data-testid="node-local-state-step"
          className={`font-normal tracking-normal normal-case ${shown.inspecting ? 'text-amber-300' : 'text-emerald-400'}`}
        >
          {shown.inspecting ? `inspected step ${shown.step}` : `live · step ${shown.step}`}
        </span>
      </div>
      <pre
        data-testid="node-local-state-value"
        className="max-h-60 overflow-auto rounded border border-zinc-800 bg-zinc-950 p-1 font-mono text-[10px] leading-snug text-zinc-300"
      >
        {pretty(shown.value)}
      </pre>
    </div>
  );
}
