import { parseHTML } from 'linkedom';

// The few DOM members cairn uses, typed here: linkedom's own declarations lean on the DOM library,
// which a Node build does not load, so through them every node would be untyped.

export interface DomElement {
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
  closest(selector: string): DomElement | null;
}

export interface DomDocument {
  readonly body: DomElement | null;
  readonly documentElement: DomElement;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
  toString(): string;
}

/** An HTML text parsed into a server-side DOM (linkedom: htmlparser2 underneath, no scripts run). */
export function parseDocument(html: string): DomDocument {
  return (parseHTML(html) as unknown as { document: DomDocument }).document;
}
