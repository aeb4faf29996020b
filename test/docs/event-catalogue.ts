import ts from 'typescript';

// Builds docs/events.md from src/events.ts: every z.object with a `type: z.literal(...)`, its
// fields rendered as TypeScript-like types, and the comments written beside them in the source.
// `npm run docs:events` writes it; test/docs/event-catalogue.test.ts fails when it drifts.

export interface EventField {
  name: string;
  type: string;
  optional: boolean;
  comment: string;
}

export interface EventEntry {
  type: string;
  comment: string;
  fields: EventField[];
}

const HEADER = `# Event catalogue

Generated from \`src/events.ts\` by \`npm run docs:events\`; do not edit by hand
(\`test/docs/event-catalogue.test.ts\` fails when this page and the code disagree).

Events are the only channel out of the engine. The TUI's reducer (\`components/store/\`), the headless
printer (\`cairn -p --output-format stream-json\` prints them one per line), the session file
(\`src/session/session-writer.ts\`) and \`cairn serve\`'s event stream all consume this one union.
\`text_delta\`, \`thinking_delta\`, \`tool_progress\` and \`permission_request\` are not written to
session files. Types named \`Message\` and \`Usage\` are declared in \`src/messages.ts\` and \`src/usage.ts\`.
`;

function commentsBefore(source: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  return ranges
    .map((r) => source.text.slice(r.pos, r.end))
    .map((c) => c.replace(/^\/\*\*?|\*\/$/g, '').split('\n').map((l) => l.replace(/^\s*(\/\/|\*)\s?/, '').trim()).join(' '))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `z.x(args)` -> ['x', args] */
function zodCall(node: ts.Expression): [string, readonly ts.Expression[]] | undefined {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return undefined;
  const target = node.expression.expression;
  if (!ts.isIdentifier(target) || target.text !== 'z') return undefined;
  return [node.expression.name.text, node.arguments];
}

/** `inner.method(args)` on anything but `z` -> ['method', inner] */
function methodCall(node: ts.Expression): [string, ts.Expression] | undefined {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return undefined;
  const inner = node.expression.expression;
  if (ts.isIdentifier(inner) && inner.text === 'z') return undefined;
  return [node.expression.name.text, inner];
}

interface Rendered {
  type: string;
  optional: boolean;
}

function createRenderer(source: ts.SourceFile) {
  const declared = new Map<string, ts.Expression>();
  source.forEachChild((statement) => {
    if (!ts.isVariableStatement(statement)) return;
    for (const d of statement.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.initializer) declared.set(d.name.text, d.initializer);
    }
  });

  const list = (items: readonly string[]): string => items.join(' | ');

  function render(node: ts.Expression): Rendered {
    const method = methodCall(node);
    if (method) {
      const [name, inner] = method;
      const r = render(inner);
      if (name === 'optional') return { ...r, optional: true };
      if (name === 'nullable') return { ...r, type: `${r.type} | null` };
      return r; // transform, refine and the like do not change the recorded shape
    }
    const call = zodCall(node);
    if (call) {
      const [name, args] = call;
      const first = args[0];
      if (name === 'literal' && first) return { type: first.getText(source), optional: false };
      if (name === 'enum' && first && ts.isArrayLiteralExpression(first)) return { type: list(first.elements.map((e) => e.getText(source))), optional: false };
      if (name === 'array' && first) {
        const inner = render(first).type;
        return { type: inner.includes(' ') && !inner.startsWith('{') ? `(${inner})[]` : `${inner}[]`, optional: false };
      }
      if (name === 'object' && first && ts.isObjectLiteralExpression(first)) {
        const parts = objectFields(first).map((f) => `${f.name}${f.optional ? '?' : ''}: ${f.type}`);
        return { type: `{ ${parts.join('; ')} }`, optional: false };
      }
      return { type: name, optional: false }; // string, number, boolean, unknown
    }
    if (ts.isIdentifier(node)) {
      const local = declared.get(node.text);
      if (local) return render(local);
      return { type: node.text.replace(/Schema$/, ''), optional: false };
    }
    return { type: node.getText(source), optional: false };
  }

  function objectFields(object: ts.ObjectLiteralExpression): EventField[] {
    return object.properties.flatMap((p): EventField[] => {
      const comment = commentsBefore(source, p);
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) {
        const r = render(p.initializer);
        return [{ name: p.name.text, type: r.type, optional: r.optional, comment }];
      }
      // A getter declares a recursive field: its return type names what it holds.
      if (ts.isGetAccessorDeclaration(p) && ts.isIdentifier(p.name)) {
        const type = p.type?.getText(source).replace(/^z\.ZodType<(.+)>$/, '$1') ?? 'unknown';
        return [{ name: p.name.text, type, optional: false, comment }];
      }
      return [];
    });
  }

  return { objectFields };
}

/** The event's `z.object({...})` literal under any chain of .transform() and the like. */
function eventObject(node: ts.Expression): ts.ObjectLiteralExpression | undefined {
  const call = zodCall(node);
  if (call) {
    const [name, args] = call;
    const first = args[0];
    return name === 'object' && first && ts.isObjectLiteralExpression(first) ? first : undefined;
  }
  const method = methodCall(node);
  return method ? eventObject(method[1]) : undefined;
}

/** The events declared in src/events.ts, in the order of the union. */
export function readEvents(sourceText: string, fileName = 'src/events.ts'): EventEntry[] {
  const source = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true);
  const { objectFields } = createRenderer(source);
  const entries: EventEntry[] = [];
  const add = (expression: ts.Expression, commented: ts.Node): void => {
    const object = eventObject(expression);
    if (!object) return;
    const fields = objectFields(object);
    const typeField = fields.find((f) => f.name === 'type');
    if (!typeField || !/^'[\w-]+'$/.test(typeField.type)) return;
    entries.push({ type: typeField.type.slice(1, -1), comment: commentsBefore(source, commented), fields: fields.filter((f) => f !== typeField) });
  };
  const later: (() => void)[] = [];
  source.forEachChild((statement) => {
    if (!ts.isVariableStatement(statement)) return;
    for (const d of statement.declarationList.declarations) {
      if (!d.initializer) continue;
      let list = d.initializer;
      while (ts.isAsExpression(list)) list = list.expression;
      if (ts.isArrayLiteralExpression(list)) for (const element of list.elements) add(element, element);
      // A lone event declared on its own (the recursive subagent envelope) joins the union after the list.
      else later.push(() => add(d.initializer as ts.Expression, statement));
    }
  });
  for (const f of later) f();
  return entries;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function renderCatalogue(events: readonly EventEntry[]): string {
  const index = events.map((e) => `[\`${e.type}\`](#${e.type.replace(/_/g, '_')})`).join(' · ');
  const sections = events.map((e) => {
    const lines = [`## ${e.type}`, ''];
    if (e.comment) lines.push(e.comment, '');
    if (e.fields.length === 0) lines.push('No fields besides `type`.');
    else {
      lines.push('| field | type | notes |', '|---|---|---|');
      for (const f of e.fields) lines.push(`| \`${f.name}\`${f.optional ? ' (optional)' : ''} | \`${cell(f.type)}\` | ${cell(f.comment)} |`);
    }
    return lines.join('\n');
  });
  return `${HEADER}\n${events.length} event types: ${index}\n\n${sections.join('\n\n')}\n`;
}

export function eventCatalogue(sourceText: string): string {
  return renderCatalogue(readEvents(sourceText));
}
