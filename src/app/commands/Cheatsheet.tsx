// Keyboard shortcut cheatsheet (`?`), generated from the command list.
import { editorStore, useEditor } from '../store/editor.store.ts';
import { Modal } from '../ui/Modal.tsx';
import { COMMANDS } from './commands.ts';

const close = () => editorStore.getState().setOverlay(null);

export function Cheatsheet() {
  const open = useEditor((s) => s.overlay === 'cheatsheet');
  if (!open) return null;
  return (
    <Modal title="Keyboard shortcuts" onClose={close} testId="cheatsheet">
      <div className="grid grid-cols-2 gap-x-4 gap-y-0.5 text-xs">
        {COMMANDS.filter((c) => c.shortcut).map((c) => (
          <div key={c.id} className="flex justify-between gap-2">
            <span className="text-zinc-300">{c.title}</span>
            <kbd className="rounded bg-zinc-800 px-1 font-mono text-[10px] text-zinc-400">{c.shortcut}</kbd>
          </div>
        ))}
        <div className="flex justify-between gap-2">
          <span className="text-zinc-300">Multi-select / box select</span>
          <kbd className="rounded bg-zinc-800 px-1 font-mono text-[10px] text-zinc-400">
            Shift+click / Shift+drag
          </kbd>
        </div>
        <div className="flex justify-between gap-2">
          <span className="text-zinc-300">Open composite</span>
          <kbd className="rounded bg-zinc-800 px-1 font-mono text-[10px] text-zinc-400">double-click</kbd>
        </div>
        <div className="flex justify-between gap-2" data-testid="cheatsheet-timeline">
          <span className="text-zinc-300">Timeline: previous / next step, back to live</span>
          <kbd className="rounded bg-zinc-800 px-1 font-mono text-[10px] text-zinc-400">← / → / Esc</kbd>
        </div>
      </div>
    </Modal>
  );
}
