// The session's rename and export buttons (the terminal's /rename and /export, on the same engine
// functions). The rename field lives in its own row, which the many redraws of the top bar leave alone.

/** The buttons for the top bar. `deps`: { el, $, api, withToken, toast, sessionId(), title(), renamed() }. */
export function sessionButtons(deps) {
  const { el } = deps;
  return [
    el('button', { type: 'button', id: 'rename', title: 'name this session (as /rename)', onclick: () => openRename(deps) }, 'Rename'),
    el('button', { type: 'button', id: 'export', title: 'download the conversation as Markdown (as /export)', onclick: () => download(deps, 'markdown') }, 'Export'),
    el('button', { type: 'button', id: 'export-json', title: 'download the event stream, one JSON event a line (as /export --format json)', onclick: () => download(deps, 'json') }, 'Export JSON'),
  ];
}

function openRename(deps) {
  const { el, $ } = deps;
  const row = $('#rename-row');
  const input = el('input', { id: 'rename-name', type: 'text', maxlength: '64', 'aria-label': 'session name', placeholder: 'a name: letters, digits, . _ -', title: 'letters, digits, ".", "_" and "-", no spaces' });
  input.value = deps.title() ?? '';
  const close = () => row.replaceChildren();
  const save = async (e) => {
    e.preventDefault();
    try {
      const { name } = await deps.api(`/api/sessions/${deps.sessionId()}/name`, { name: input.value });
      close();
      deps.toast(`Session named "${name}".`);
      deps.renamed();
    } catch (error) {
      deps.toast(error.message, 'error');
    }
  };
  const form = el('form', { class: 'rename', onsubmit: save }, input, el('button', { type: 'submit', id: 'rename-save' }, 'Save'), el('button', { type: 'button', onclick: close }, 'Cancel'));
  // Esc in the field or on its buttons closes it; it must not reach the page's Esc, which stops the turn.
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    close();
  });
  row.replaceChildren(form);
  input.focus();
  input.select();
}

async function download(deps, format) {
  try {
    const res = await fetch(deps.withToken(`/api/sessions/${deps.sessionId()}/export?format=${format}`));
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error ?? `${res.status} ${res.statusText}`);
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `cairn.${format === 'json' ? 'jsonl' : 'md'}`;
    const url = window.URL.createObjectURL(await res.blob());
    const link = deps.el('a', { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => window.URL.revokeObjectURL(url), 10_000);
    const skipped = Number(res.headers.get('x-cairn-export-warnings') ?? 0);
    deps.toast(`Exported ${name}${skipped ? ` (${skipped} unreadable line(s) left out)` : ''}.`);
  } catch (error) {
    deps.toast(`Not exported: ${error.message}`, 'error');
  }
}
