// A save that would write a graph with validation errors asks first ("Save anyway" / "Cancel").
// The pending question lives here, beside the dialog that shows it, not in the document store.
import { createStore, useStore } from 'zustand';

export interface SaveErrorsQuestion {
  tabId: string;
  title: string;
  errors: number;
  /** First error messages, shown in the dialog. */
  messages: string[];
  /** Runs after an accepted save wrote the file (e.g. closing the tab that asked to be saved). */
  onSaved?: () => void;
}

export const saveConfirmStore = createStore<{ question: SaveErrorsQuestion | null }>(() => ({
  question: null,
}));

export const askSaveWithErrors = (q: SaveErrorsQuestion | null): void =>
  saveConfirmStore.setState({ question: q });

export const useSaveErrorsQuestion = (): SaveErrorsQuestion | null =>
  useStore(saveConfirmStore, (s) => s.question);
