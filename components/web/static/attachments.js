// Images and PDFs pasted or dropped into the prompt box: each is uploaded at once (the server checks
// it by its content and scales it for the model), shown as a chip that can be removed, and sent with
// the next prompt by its id. Nothing here decides what a file is: the server does.

/** Bytes as people read them (as the terminal's chip does). */
export function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** `image shot.png · 1280x800 · 45 KB`, `pdf spec.pdf · 3 pages · 1.1 MB`. */
export function attachmentLabel(a) {
  if (a.type === 'image') return `image ${a.name} · ${a.width}x${a.height} · ${formatBytes(a.bytes)}`;
  return `pdf ${a.name} · ${a.pages} ${a.pages === 1 ? 'page' : 'pages'} · ${formatBytes(a.bytes)}`;
}

function base64Of(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`cannot read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/**
 * The tray of chips above the prompt box. `api(path, body, method)` calls the server; `redraw()`
 * draws the chips again (drawChips); `toast(message, level)` reports a refusal.
 */
export function createAttachmentTray({ api, toast, redraw }) {
  let sessionId;
  let items = []; // { key, name, status: 'uploading' | 'ready', view? }
  let next = 0;

  async function add(file) {
    if (!sessionId) return;
    const session = sessionId;
    const item = { key: ++next, name: file.name || 'pasted', status: 'uploading' };
    items.push(item);
    redraw();
    try {
      const view = await api(`/api/sessions/${session}/attachments`, { name: item.name, data: await base64Of(file) });
      if (session !== sessionId || !items.includes(item)) {
        // Removed (or the session changed) while it uploaded: the server lets it go too.
        api(`/api/sessions/${session}/attachments/${view.id}`, undefined, 'DELETE').catch(() => undefined);
        return;
      }
      Object.assign(item, { status: 'ready', view });
    } catch (error) {
      items = items.filter((i) => i !== item);
      toast(`Not attached: ${error.message}`, 'error');
    }
    redraw();
  }

  function remove(item) {
    items = items.filter((i) => i !== item);
    if (item.view) api(`/api/sessions/${sessionId}/attachments/${item.view.id}`, undefined, 'DELETE').catch((error) => toast(error.message, 'error'));
    redraw();
  }

  return {
    /** A new session: chips belong to the session they were uploaded to. */
    reset(id) {
      sessionId = id;
      items = [];
    },
    /** The files of a paste or a drop (anything else in them is left to the text box). */
    addFiles(files) {
      for (const file of files) void add(file);
      return files.length > 0;
    },
    removeLast() {
      const last = items.at(-1);
      if (!last) return false;
      remove(last);
      return true;
    },
    uploading: () => items.some((i) => i.status === 'uploading'),
    ids: () => items.filter((i) => i.status === 'ready').map((i) => i.view.id),
    /** After the prompt went: the chips went with it. */
    sent() {
      items = [];
      redraw();
    },
    /** The chips, each with its remove button. */
    draw(el) {
      return items.map((item) =>
        el(
          'span',
          { class: `chip ${item.status}`, 'data-chip': item.name, title: item.view ? attachmentLabel(item.view) : `uploading ${item.name}` },
          item.view ? item.view.chip : `[uploading ${item.name}…]`,
          el('button', { type: 'button', class: 'remove', 'aria-label': `remove ${item.name}`, onclick: () => remove(item) }, '✕'),
        ),
      );
    },
  };
}
