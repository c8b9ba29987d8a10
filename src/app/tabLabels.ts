// What each tab of the top bar says. A tab's title is its graph's name, so two tabs can read the
// same ("Grid Navigator" the file, and a run of it); like an IDE that adds the folder to same-named
// files, a tab gets a dimmed detail that tells it apart: a run's tab always names its run (short
// id), a file's tab names its file when another tab has the same title, and an unsaved one says so.
// The tooltip gives the whole: title and file path or full run id.
import type { Tab } from './store/doc.slice.ts';

export interface TabLabel {
  title: string;
  /** Dimmed, after the title; '' when the title alone is unique. */
  detail: string;
  tooltip: string;
}

/** Ids keep their kind and their tail, which is where two runs differ: `exec_…_4e511f1`. */
export function shortRunId(id: string): string {
  if (id.length <= 16) return id;
  const kind = id.indexOf('_');
  const head = kind > 0 && kind <= 8 ? id.slice(0, kind + 1) : '';
  return `${head}…${id.slice(-8)}`;
}

type TabFields = Pick<Tab, 'id' | 'title' | 'savedId' | 'runId'>;

export function tabLabels(tabs: readonly TabFields[]): Map<string, TabLabel> {
  const byTitle = new Map<string, number>();
  for (const t of tabs) byTitle.set(t.title, (byTitle.get(t.title) ?? 0) + 1);
  const unsavedSeen = new Map<string, number>();
  const out = new Map<string, TabLabel>();
  for (const t of tabs) {
    const shared = (byTitle.get(t.title) ?? 0) > 1;
    if (t.runId !== null) {
      out.set(t.id, {
        title: t.title,
        detail: shortRunId(t.runId),
        tooltip: `${t.title} · run ${t.runId}`,
      });
    } else if (t.savedId !== null) {
      out.set(t.id, {
        title: t.title,
        detail: shared ? t.savedId : '',
        tooltip: `${t.title} · graphs/${t.savedId}.json`,
      });
    } else {
      const n = (unsavedSeen.get(t.title) ?? 0) + 1;
      unsavedSeen.set(t.title, n);
      out.set(t.id, {
        title: t.title,
        detail: shared ? (n === 1 ? 'unsaved' : `unsaved ${n}`) : '',
        tooltip: `${t.title} (not saved yet)`,
      });
    }
  }
  return out;
}
