import type { ScriptedResponse } from './anthropic-server.js';

// The model lists as the APIs send them: Anthropic's GET /v1/models (a page with has_more and the
// ids at its ends) and OpenAI's GET /v1/models (an `object: "list"`); extra fields per entry
// (OpenRouter's context_length and pricing) are merged in as given.

export type ListedEntry = string | ({ id: string } & Record<string, unknown>);

const entryOf = (e: ListedEntry): { id: string } & Record<string, unknown> => (typeof e === 'string' ? { id: e } : e);

export function anthropicModelsReply(entries: readonly ListedEntry[]): ScriptedResponse {
  const data = entries.map(entryOf).map((e) => ({ type: 'model', display_name: e.id, created_at: '2026-10-01T00:00:00Z', ...e }));
  return { body: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null } };
}

export function openaiModelsReply(entries: readonly ListedEntry[]): ScriptedResponse {
  return { body: { object: 'list', data: entries.map(entryOf).map((e) => ({ object: 'model', created: 1_780_000_000, owned_by: 'system', ...e })) } };
}

/** Whether a recorded request asks for the model list (GET …/models). */
export function isModelList(request: { method: string; path: string }): boolean {
  return request.method === 'GET' && /\/models(\?|$)/.test(request.path);
}
