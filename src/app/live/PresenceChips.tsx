// The top bar's "also here": a chip per other person who has the active tab's graph or run open
// (presence.ts), initials on their colour, the name on hover; past MAX_CHIPS, a "+N" chip whose
// tooltip names the rest. Nothing at all when nobody else is here.
import { useEffect } from 'react';
import type { PresenceMember, PresenceSubject } from '../../domain/protocol/presence.ts';
import { presenceClient } from './connection.ts';
import { initials, usePresence } from './presence.ts';

export const MAX_CHIPS = 4;

const CHIP =
  'flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-[9px] font-semibold ring-2 ring-zinc-925';

export function PresenceChips({ graph, run }: { graph: string | null; run: string | null }) {
  // Tell the server what this tab shows whenever that changes (null: an unsaved graph, nothing shared).
  useEffect(() => {
    const subject: PresenceSubject | null = graph ? { graph } : run ? { run } : null;
    presenceClient().open(subject);
  }, [graph, run]);
  const others = usePresence((s) => s.others);
  return <AlsoHere others={others} />;
}

/** The chips themselves (what the store holds, drawn). */
export function AlsoHere({ others }: { others: readonly PresenceMember[] }) {
  if (others.length === 0) return null;
  const shown = others.slice(0, MAX_CHIPS);
  const rest = others.slice(MAX_CHIPS);
  const names = others.map((m) => m.name).join(', ');
  return (
    <div
      role="group"
      aria-label={`Also here: ${names}`}
      data-testid="presence"
      className="ml-2 flex shrink-0 items-center -space-x-1"
    >
      {shown.map((m) => (
        <span
          key={m.id}
          data-testid="presence-chip"
          data-member-id={m.id}
          title={`${m.name} also has this open`}
          aria-hidden="true"
          className={`${CHIP} text-zinc-950`}
          style={{ backgroundColor: m.colour }}
        >
          {initials(m.name)}
        </span>
      ))}
      {rest.length > 0 && (
        <span
          data-testid="presence-more"
          title={`also here: ${rest.map((m) => m.name).join(', ')}`}
          aria-hidden="true"
          className={`${CHIP} bg-zinc-600 text-zinc-100`}
        >
          +{rest.length}
        </span>
      )}
    </div>
  );
}
