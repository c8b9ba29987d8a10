// Keyboard shortcut cheatsheet (`?`), generated from the command list, plus the mouse gestures and
// the timeline's keys; every shortcut drawn as keycaps (Keycaps.tsx).
import { editorStore, useEditor } from '../store/editor.store.ts';
import { Modal } from '../ui/Modal.tsx';
import { COMMANDS } from './commands.ts';
import { Keycaps } from './Keycaps.tsx';

const close = () => editorStore.getState().setOverlay(null);

const GESTURES: { id: string; title: string; shortcut: string; testId?: string }[] = [
  { id: 'multi-select', title: 'Multi-select / box select', shortcut: 'Shift+click / Shift+drag' },
  { id: 'open-composite', title: 'Open composite', shortcut: 'double-click' },
  {
    id: 'timeline',
    title: 'Timeline: previous / next step, back to live',
    shortcut: '← / → / Esc',
    testId: 'cheatsheet-timeline',
  },
];

export function Cheatsheet() {
  const open = useEditor((s) => s.overlay === 'cheatsheet');
  if (!open) return null;
  const rows = [
    ...COMMANDS.filter((c) => c.shortcut).map((c) => ({ id: c.id, title: c.title, shortcut: c.shortcut! })),
    ...GESTURES,
  ];
  return (
    <Modal title="Keyboard shortcuts" onClose={close} testId="cheatsheet" width="w-[680px]">
      <div className="grid grid-cols-2 gap-x-6 gap-y-1 text-xs">
        {rows.map((r) => (
          <div
            key={r.id}
            className="flex items-center justify-between gap-3"
            data-testid={'testId' in r ? r.testId : undefined}
          >
            <span className="min-w-0 text-zinc-300">{r.title}</span>
            <Keycaps shortcut={r.shortcut} />
          </div>
        ))}
      </div>
    </Modal>
  );
}
