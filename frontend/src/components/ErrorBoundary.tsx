import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  children: ReactNode;
  /** What to say instead of the broken part. */
  message: string;
  /** A new value (e.g. the next game version) tries drawing again. */
  resetKey?: unknown;
}

/** Keeps a drawing error in one part of the page from blanking the whole app. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  render(): ReactNode {
    if (this.state.failed) return <p className="error-msg" role="alert">{this.props.message}</p>;
    return this.props.children;
  }
}
