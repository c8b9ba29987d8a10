// The top bar's connection dot: connected / reconnecting / offline (connectionStatus.ts).
import { useEffect } from 'react';
import { liveClient } from './connection.ts';
import { useConnection, type ConnectionState } from './connectionStatus.ts';

const VIEW: Record<ConnectionState, { text: string; dot: string; tone: string }> = {
  connecting: { text: 'connecting…', dot: 'bg-zinc-500', tone: 'text-zinc-400' },
  connected: { text: 'connected', dot: 'bg-emerald-400', tone: 'text-zinc-400' },
  reconnecting: { text: 'reconnecting…', dot: 'bg-amber-400 animate-pulse', tone: 'text-amber-300' },
  offline: { text: 'offline', dot: 'bg-red-500', tone: 'text-red-400' },
  incompatible: { text: 'reload the page', dot: 'bg-red-500', tone: 'text-red-400' },
};

export function ConnectionStatus() {
  // The connection is opened at first use; the status shows from the start.
  useEffect(() => void liveClient(), []);
  const state = useConnection((s) => s.state);
  const attempt = useConnection((s) => s.attempt);
  const reason = useConnection((s) => s.reason);
  const v = VIEW[state];
  if (state === 'incompatible')
    return (
      <span
        data-testid="connection-status"
        data-state={state}
        role="alert"
        className={`ml-2 shrink-0 text-[10px] ${v.tone}`}
      >
        {reason}
      </span>
    );
  // A fixed width (the longest text's) keeps the run toolbar beside it from jumping sideways when
  // "connecting…" turns into "connected" right after load. A narrow window shows the dot alone
  // (the tooltip says the rest), so the tabs keep their room.
  return (
    <span
      data-testid="connection-status"
      data-state={state}
      className={`ml-2 flex w-[88px] shrink-0 items-center justify-end gap-1 text-[10px] max-xl:w-auto ${v.tone}`}
      title={`live connection to the run server: ${v.text}${attempt ? ` (attempt ${attempt})` : ''}${reason ? ` — ${reason}` : ''}; after a reconnect the run view catches up from the last event it had`}
    >
      <span className={`h-1.5 w-1.5 rounded-full ${v.dot}`} />
      <span className="max-xl:sr-only">{v.text}</span>
    </span>
  );
}
