// Run control as commands (palette, shortcuts, cheatsheet): the same actions as the run toolbar,
// allowed by the same state machine (toolbarModel.ts), so Space never pauses a run that is not
// running or starts a second one while the first is still starting.
import { editorStore } from '../store/editor.store.ts';
import { pause, play, reset, runIsOfActiveTab, stepOnce, stop } from '../run/run.actions.ts';
import { runStore } from '../run/run.store.ts';
import { toolbarModel, type ToolbarModel } from '../run/toolbarModel.ts';
import type { Command } from './commands.ts';

/** One run request at a time (the toolbar has its own guard; this one is for keys and the palette). */
let inFlight = false;

function model(): ToolbarModel {
  return toolbarModel(runStore.getState().status, inFlight, !runIsOfActiveTab());
}

function act(allowed: (m: ToolbarModel) => boolean, fn: () => Promise<void>, refusal: string): () => void {
  return () => {
    if (!allowed(model())) {
      if (!inFlight) editorStore.getState().showToast(refusal, 'info');
      return;
    }
    inFlight = true;
    void fn().finally(() => {
      inFlight = false;
    });
  };
}

/** Space: Pause while running, otherwise Play (start, or resume a paused run of this tab). */
export function togglePlayPause(): void {
  const m = model();
  if (m.pause) act((x) => x.pause, pause, '')();
  else act((x) => x.play, play, 'the run is busy')();
}

export const RUN_COMMANDS: Command[] = [
  { id: 'run.toggle', title: 'Play / Pause run', shortcut: 'Space', run: togglePlayPause },
  {
    id: 'run.play',
    title: 'Run graph (or resume it when paused)',
    run: act((m) => m.play, play, 'a run of this graph is already running'),
  },
  { id: 'run.pause', title: 'Pause run', run: act((m) => m.pause, pause, 'no running run to pause') },
  {
    id: 'run.resume',
    title: 'Resume run',
    run: act((m) => m.play && m.playLabel === 'Resume', play, 'no paused run of this graph to resume'),
  },
  {
    id: 'run.step',
    title: 'Step run (one step)',
    shortcut: '.',
    run: act((m) => m.step, stepOnce, 'pause the run to step it'),
  },
  {
    id: 'run.stop',
    title: 'Stop run',
    shortcut: 'Ctrl+.',
    run: act((m) => m.stop, stop, 'no live run to stop'),
  },
  {
    id: 'run.reset',
    title: 'Reset run (stop and clear values)',
    run: act((m) => m.reset, reset, 'nothing to reset'),
  },
];
