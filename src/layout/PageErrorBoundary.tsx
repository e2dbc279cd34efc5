/** Catches a page that failed to render: a failed chunk load reloads the page once (spec part 1 §8); other errors show their text. */
import { Component, type ReactNode } from "react";
import { isChunkLoadError, reloadOnceForChunkError } from "../app/lazy.ts";

interface State {
  error?: Error;
}

export class PageErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error) {
    if (isChunkLoadError(error)) reloadOnceForChunkError();
    else console.error("[page]", error);
  }

  componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" data-testid="page-error" style={{ padding: 24, color: "#cf1322" }}>
        {isChunkLoadError(this.state.error) ? "This page could not be loaded. Please reload the page." : this.state.error.message}
      </div>
    );
  }
}
