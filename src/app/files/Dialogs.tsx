// The file dialogs: save-as / rename (name prompt), stale-save conflict (overwrite / reload / save
// as new), replacing a file that does not read as a graph (only on an explicit yes over its parse
// error), confirm closing a dirty tab, confirm saving a graph with errors, and import errors listed
// with their JSON paths.
import { useState } from 'react';
import type { Issue } from '../store/graphIo.ts';
import { editorStore, useEditor } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { Modal } from '../ui/Modal.tsx';
import {
  overwrite,
  reloadFromDisk,
  renameSaved,
  replaceUnreadable,
  saveTab,
  saveTabAs,
  tabErrors,
} from './documents.ts';
import { whereOf, type UnreadableFile } from './savedGraph.ts';
import { askSaveWithErrors, useSaveErrorsQuestion } from './saveConfirm.ts';

const close = () => editorStore.getState().setDialog(null);

function NameDialog({ tabId, mode }: { tabId: string; mode: 'saveAs' | 'rename' }) {
  const tab = useEditor((s) => s.tabs.find((t) => t.id === tabId));
  const [name, setName] = useState(tab?.graph.name || (tab?.title === 'Untitled' ? '' : (tab?.title ?? '')));
  const [error, setError] = useState<string | null>(null);
  const [exists, setExists] = useState(false);
  /** The file the name points at does not read as a graph: replacing it is a second, explicit yes. */
  const [unreadable, setUnreadable] = useState<UnreadableFile | null>(null);
  // Saving is the answer to this dialog, so a graph's errors are named here, not asked about again.
  const [errors] = useState(() => (tab && mode === 'saveAs' ? tabErrors(tab).length : 0));
  const submit = async (force = false, replace = false) => {
    const r =
      mode === 'rename'
        ? await renameSaved(tabId, name)
        : await saveTabAs(tabId, name, { overwrite: force, replaceUnreadable: replace });
    if (r.ok) close();
    else {
      setError(r.reason);
      setExists('exists' in r && r.exists === true);
      setUnreadable(('unreadable' in r && r.unreadable) || null);
    }
  };
  return (
    <Modal title={mode === 'rename' ? 'Rename graph' : 'Save graph as'} onClose={close} testId="save-dialog">
      <input
        autoFocus
        data-testid="save-name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setError(null);
          setExists(false);
          setUnreadable(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void submit();
        }}
        placeholder="graph name"
        className="mb-2 w-full rounded border border-zinc-700 bg-zinc-950 px-2 py-1 text-sm outline-none focus:border-sky-600"
      />
      {errors > 0 && (
        <div data-testid="save-as-errors" className="mb-2 text-xs text-amber-300">
          This graph has {errors} validation {errors === 1 ? 'error' : 'errors'} (see Issues); it is saved as
          it is.
        </div>
      )}
      {error && (
        <div data-testid="save-error" className="mb-2 text-xs text-red-400">
          {error}
        </div>
      )}
      {unreadable && <ParseErrors issues={unreadable.issues} />}
      <div className="flex justify-end gap-2">
        <Button onClick={close}>Cancel</Button>
        {exists && (
          <Button variant="danger" data-testid="save-overwrite" onClick={() => void submit(true)}>
            Overwrite
          </Button>
        )}
        {unreadable && (
          <Button
            variant="danger"
            data-testid="save-replace-unreadable"
            onClick={() => void submit(true, true)}
          >
            Replace the unreadable file
          </Button>
        )}
        <Button variant="primary" data-testid="save-confirm" onClick={() => void submit()}>
          {mode === 'rename' ? 'Rename' : 'Save'}
        </Button>
      </div>
    </Modal>
  );
}

/** Lines of the on-disk changes listed before "+N more". */
const CONFLICT_LINES = 12;

function ConflictDialog({ tabId, changes }: { tabId: string; changes: string[] }) {
  const tab = useEditor((s) => s.tabs.find((t) => t.id === tabId));
  if (!tab) return null;
  return (
    <Modal title="The file changed on disk" onClose={close} testId="conflict-dialog">
      <p className="mb-2 text-xs text-zinc-300">
        <b>{tab.savedId}</b> was modified since you opened it. Saving now would discard those changes.
      </p>
      {changes.length > 0 && (
        <div className="mb-3">
          <div className="mb-1 text-[11px] text-zinc-400">Changed on disk since you opened it:</div>
          <ul
            data-testid="conflict-changes"
            className="max-h-48 overflow-auto rounded border border-zinc-800 bg-zinc-950 px-2 py-1 font-mono text-[11px] text-zinc-300"
          >
            {changes.slice(0, CONFLICT_LINES).map((line, i) => (
              <li key={i}>{line}</li>
            ))}
            {changes.length > CONFLICT_LINES && (
              <li className="text-zinc-500">+{changes.length - CONFLICT_LINES} more</li>
            )}
          </ul>
        </div>
      )}
      <div className="flex justify-end gap-2">
        <Button
          data-testid="conflict-save-as"
          onClick={() => {
            editorStore.getState().setDialog({ kind: 'saveAs', tabId });
          }}
        >
          Save as new…
        </Button>
        <Button
          data-testid="conflict-reload"
          onClick={() => {
            close();
            void reloadFromDisk(tabId);
          }}
        >
          Reload from disk
        </Button>
        <Button
          variant="danger"
          data-testid="conflict-overwrite"
          onClick={() => {
            close();
            void overwrite(tab);
          }}
        >
          Overwrite
        </Button>
      </div>
    </Modal>
  );
}

/** A file's parse errors, each with where it is (line and column, else its JSON path). */
function ParseErrors({ issues }: { issues: Issue[] }) {
  return (
    <ul data-testid="parse-errors" className="mb-3 max-h-32 list-none overflow-y-auto text-xs">
      {issues.slice(0, 8).map((i, k) => (
        <li key={k} className="mb-0.5">
          <span className="font-mono text-amber-300">{whereOf(i)}</span>{' '}
          <span className="text-zinc-200">{i.message}</span>
        </li>
      ))}
      {issues.length > 8 && <li className="text-zinc-500">… and {issues.length - 8} more</li>}
    </ul>
  );
}

/**
 * A save found the file on disk unreadable. Its text is somebody's work (a typo away from a graph),
 * so the default is to keep it; replacing it is the red button, and only that sends the flag.
 */
function ReplaceUnreadableDialog({
  tabId,
  id,
  issues,
  etag,
}: {
  tabId: string;
  id: string;
  issues: Issue[];
  etag: string | null;
}) {
  return (
    <Modal
      title={`${id} on disk does not read as a graph`}
      onClose={close}
      testId="replace-unreadable-dialog"
    >
      <p className="mb-2 text-xs text-zinc-300">
        The file <b>{id}</b> was changed on disk and can no longer be read. Saving now would replace its whole
        text with this tab&apos;s graph:
      </p>
      <ParseErrors issues={issues} />
      <p className="mb-3 text-xs text-zinc-400">
        Fix the file and save again, or save this graph under another name.
      </p>
      <div className="flex justify-end gap-2">
        <Button data-testid="replace-unreadable-cancel" onClick={close}>
          Keep the file
        </Button>
        <Button
          data-testid="replace-unreadable-save-as"
          onClick={() => editorStore.getState().setDialog({ kind: 'saveAs', tabId })}
        >
          Save as new…
        </Button>
        <Button
          variant="danger"
          data-testid="replace-unreadable-confirm"
          onClick={() => {
            close();
            void replaceUnreadable(tabId, etag);
          }}
        >
          Replace the unreadable file
        </Button>
      </div>
    </Modal>
  );
}

function ConfirmCloseDialog({ tabId }: { tabId: string }) {
  const tab = useEditor((s) => s.tabs.find((t) => t.id === tabId));
  if (!tab) return null;
  const discard = () => {
    close();
    editorStore.getState().closeTab(tabId);
  };
  return (
    <Modal title="Close tab with unsaved changes?" onClose={close} testId="confirm-close-dialog">
      <p className="mb-3 text-xs text-zinc-300">
        <b>{tab.title}</b> has unsaved changes.
      </p>
      <div className="flex justify-end gap-2">
        <Button onClick={close}>Cancel</Button>
        <Button variant="danger" data-testid="confirm-discard" onClick={discard}>
          Discard changes
        </Button>
        <Button
          variant="primary"
          onClick={() => {
            close();
            const closeIt = () => editorStore.getState().closeTab(tabId);
            void saveTab(tabId, editorStore, { onSaved: closeIt }).then((ok) => ok && closeIt());
          }}
        >
          Save
        </Button>
      </div>
    </Modal>
  );
}

function ImportErrorsDialog({
  fileName,
  errors,
}: {
  fileName: string;
  errors: { path: string; message: string }[];
}) {
  return (
    <Modal title={`Could not open ${fileName}`} onClose={close} testId="import-errors">
      <p className="mb-2 text-xs text-zinc-400">The file was not opened; your open graphs are unchanged.</p>
      <div className="max-h-64 overflow-y-auto">
        {errors.map((e, i) => (
          <div key={i} data-testid="import-error" className="mb-1 text-xs">
            <span className="font-mono text-amber-300">{e.path}</span>{' '}
            <span className="text-zinc-200">{e.message}</span>
          </div>
        ))}
      </div>
      <div className="mt-2 flex justify-end">
        <Button onClick={close}>Close</Button>
      </div>
    </Modal>
  );
}

const cancelSave = () => askSaveWithErrors(null);

/** "This graph has N errors": Save anyway writes it as it is, Cancel writes nothing. */
function SaveErrorsDialog() {
  const q = useSaveErrorsQuestion();
  if (!q) return null;
  const plural = q.errors === 1 ? 'error' : 'errors';
  return (
    <Modal title={`Save with ${q.errors} ${plural}?`} onClose={cancelSave} testId="save-errors-dialog">
      <p className="mb-2 text-xs text-zinc-300">
        <b>{q.title}</b> has <b data-testid="save-errors-count">{q.errors}</b> validation {plural}; the saved
        file may not open or run. See the Issues panel.
      </p>
      <ul className="mb-3 max-h-32 list-disc overflow-y-auto pl-4 text-xs text-red-300">
        {q.messages.map((m, i) => (
          <li key={i}>{m}</li>
        ))}
      </ul>
      <div className="flex justify-end gap-2">
        <Button data-testid="save-errors-cancel" onClick={cancelSave}>
          Cancel
        </Button>
        <Button
          variant="danger"
          data-testid="save-errors-confirm"
          onClick={() => {
            askSaveWithErrors(null);
            void saveTab(q.tabId, editorStore, { allowErrors: true }).then((ok) => ok && q.onSaved?.());
          }}
        >
          Save anyway
        </Button>
      </div>
    </Modal>
  );
}

export function Dialogs() {
  return (
    <>
      <FileDialog />
      <SaveErrorsDialog />
    </>
  );
}

function FileDialog() {
  const d = useEditor((s) => s.dialog);
  if (!d) return null;
  switch (d.kind) {
    case 'saveAs':
      return <NameDialog key={d.tabId} tabId={d.tabId} mode="saveAs" />;
    case 'rename':
      return <NameDialog key={`r${d.tabId}`} tabId={d.tabId} mode="rename" />;
    case 'conflict':
      return <ConflictDialog tabId={d.tabId} changes={d.changes} />;
    case 'confirmClose':
      return <ConfirmCloseDialog tabId={d.tabId} />;
    case 'importErrors':
      return <ImportErrorsDialog fileName={d.fileName} errors={d.errors} />;
    case 'replaceUnreadable':
      return <ReplaceUnreadableDialog tabId={d.tabId} id={d.id} issues={d.issues} etag={d.etag} />;
  }
}
