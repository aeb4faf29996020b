import { Component } from 'react';
import type { ReactNode } from 'react';

interface Props {
  onError(error: Error): void;
  children: ReactNode;
}

/** A render error ends the app through the same restore-then-report path as any crash. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    this.props.onError(error);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
