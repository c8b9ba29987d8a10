// One panel's render error stays in that panel. Without a boundary React unmounts the whole tree on
// an uncaught render error, and the editor goes blank, unsaved work included on screen (the journal
// still holds it). The failed panel says what failed, the Log gets the message, and "Try again"
// renders the panel anew (most such errors come from one bad state that a later change clears).
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { editorStore } from '../store/editor.store.ts';

interface Props {
  /** What the panel is called to a user ("Inspector", "Canvas"): in the message and the test id. */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const message = error instanceof Error ? error.message : String(error);
    editorStore.getState().addLog('error', `the ${this.props.name} panel failed: ${message}`);
    console.error(`the ${this.props.name} panel failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const id = this.props.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return (
      <div
        role="alert"
        data-testid={`panel-error-${id}`}
        className="m-2 flex flex-col gap-2 rounded border border-red-800 bg-red-950/40 p-3 text-xs text-red-200"
      >
        <div className="font-semibold">The {this.props.name} panel failed</div>
        <div className="font-mono break-words text-red-300">{error.message}</div>
        <button
          type="button"
          className="self-start rounded border border-red-700 px-2 py-0.5 text-red-100 hover:bg-red-900"
          onClick={() => this.setState({ error: null })}
        >
          Try again
        </button>
      </div>
    );
  }
}
