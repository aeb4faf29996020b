import type { ModelRow } from '../../src/providers/model-catalog.js';
import type { Effort } from '../../src/providers/effort.js';
import type { QuestionUi } from './question-picker.js';
import type { AgentEvent, EventOf, NoticeLevel, PermissionMode, TerminalReason, TodoItem } from '../../src/events.js';
import type { PriceTable, TokenCounts } from '../../src/pricing.js';
import type { QueuedPrompt } from '../../src/session/queued-prompt.js';
import type { SessionSummary } from '../../src/session/session-list.js';
import type { ToolDisplay } from '../../src/tools/display.js';
import type { EditorState } from '../prompt/editor.js';
import type { ThemeName } from '../theme/theme.js';
import type { BackgroundAction, BackgroundCounts, CronItem, Toast } from './background-types.js';
import type { CallView } from '../../src/tools/call-view.js';
import type { ToolStatus } from '../../src/tools/card-lifecycle.js';

export type { EditorState };

/** A tool call's life (src/tools/card-lifecycle.ts): the card's icon, colour and default expansion follow from it. */
export type { ToolStatus };

export interface UserItem {
  readonly kind: 'user';
  readonly id: string;
  /** What was sent, large pastes included. */
  readonly text: string;
  /** The prompt as the editor showed it, large pastes as placeholders; folded to this by default. */
  readonly display?: string;
  /** The images and PDFs sent with it, as labels: `image shot.png · 1280x800 · 45 KB`. */
  readonly attachments?: readonly string[];
  /** Pictures drawn under their chips (tui.json inlineImages, in kitty), by attachment label. */
  readonly thumbnails?: Readonly<Record<string, Thumbnail>>;
  readonly userExpanded?: boolean;
}

/** A picture the terminal holds as kitty image `image`, shown `columns` x `rows` cells. */
export interface Thumbnail {
  readonly image: number;
  readonly columns: number;
  readonly rows: number;
}
export interface AssistantItem {
  readonly kind: 'assistant';
  readonly id: string;
  readonly text: string;
  readonly streaming: boolean;
}
export interface ThinkingItem {
  readonly kind: 'thinking';
  readonly id: string;
  readonly text: string;
  readonly streaming: boolean;
  readonly userExpanded?: boolean;
}
export interface ToolItem {
  readonly kind: 'tool';
  /**
   * cairn's own id for the card, unique in the transcript. Providers may reuse tool_use ids
   * across turns, so events find their card by `toolUseId` (the newest first) and the UI keys,
   * selects and places approvals by this id.
   */
  readonly id: string;
  /** The tool_use id the provider gave the call. */
  readonly toolUseId: string;
  readonly name: string;
  readonly input: unknown;
  /** How the call is shown (its tool's describe); absent for calls recorded before views. */
  readonly view?: CallView;
  /** The user was asked to approve it (an edit that ran unasked shows its diff folded). */
  readonly asked?: true;
  readonly parallel: boolean;
  readonly batch: number;
  readonly status: ToolStatus;
  /** When it started running: the tool_start, or the moment its approval was given. */
  readonly startedAt: number;
  readonly durationMs?: number;
  /** Live output while running (bash), kept short: the card shows its last lines. */
  readonly progress: string;
  readonly result?: string;
  readonly display?: ToolDisplay;
  readonly deniedReason?: string;
  /** Set once the user toggles the card; automatic expansion never overrides it. */
  readonly userExpanded?: boolean;
  /** An `agent` call's subagent: its activity and nested cards. */
  readonly child?: SubagentActivity;
  /** What hooks did to this call (blocked it, added text, failed), shown under the card. */
  readonly hookNotes?: readonly HookNote[];
  /** A cron auto run's card: it belongs to no turn, so a turn's end does not stop it. */
  readonly background?: true;
  /** A background agent's card (run_in_background): Esc on an idle prompt leaves it running; /agents stops it. */
  readonly backgroundAgent?: true;
}
/** One hook outcome under a tool card. */
export interface HookNote {
  readonly hookEvent: string;
  readonly outcome: 'blocked' | 'injected' | 'updated' | 'message' | 'stopped' | 'error';
  readonly text: string;
  readonly source: string;
}
/** An approved plan as the pinned block shows it: its text, unfolded just after approval, one title line after. */
export interface ApprovedPlan {
  readonly text: string;
  /** The permission mode the user chose to carry it out in. */
  readonly mode?: PermissionMode;
  readonly expanded: boolean;
}
export interface NoticeItem {
  readonly kind: 'notice';
  readonly id: string;
  readonly level: NoticeLevel;
  readonly message: string;
  readonly code?: string;
}
export interface TerminalItem {
  readonly kind: 'terminal';
  readonly id: string;
  readonly reason: Exclude<TerminalReason, 'completed'>;
  readonly error?: string;
}

/** A compaction boundary: a divider with tokens before/after; the summary unfolds like a card. */
export interface CompactItem {
  readonly kind: 'compact';
  readonly id: string;
  readonly trigger: 'auto' | 'manual';
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly summary: string;
  readonly userExpanded?: boolean;
}

export type TranscriptItem = UserItem | AssistantItem | ThinkingItem | ToolItem | NoticeItem | TerminalItem | CompactItem | CronItem;

/** `cardId`: the id of the card that asks (for a subagent's request, its qualified nested id). */
export type PermissionRequest = EventOf<'permission_request'> & { readonly cardId?: string };

export type Phase = 'waiting' | 'thinking' | 'responding' | 'tools';

export interface ApprovalUi {
  /** Index into the choice list of the request at the head of the queue. */
  readonly choice: number;
  /** The "No, and tell cairn what to do instead" field. */
  readonly denyText: string;
  /** A bracketed paste into that field, still arriving. */
  readonly pasting?: string;
  /** The picker of a question (ask_user_question) once a key has moved it; absent: nothing chosen yet. */
  readonly question?: QuestionUi;
}

export type ScrollState = { readonly follow: true } | { readonly follow: false; readonly top: number; readonly seenTotal: number };

export interface SessionInfo {
  readonly model: string;
  readonly provider: string;
  readonly cwd: string;
  readonly mode: PermissionMode;
  readonly startedInBypass: boolean;
  readonly offline: boolean;
  /** The spending cap in force (maxBudgetUsd, --max-budget-usd): the status row shows the spend against it. */
  readonly maxBudgetUsd?: number;
  /** The name the user gave the session (/rename, -n): the header and the terminal title show it. */
  readonly name?: string;
}

/** One prompt's model calls (subagents' included). */
export interface TurnUsage {
  readonly label: string;
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly calls: number;
}

export interface UsageTotals {
  /** Uncached input tokens of every call this session, subagents' included. */
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly calls: number;
  /** Tokens the last request put in the context window (its input plus cache reads/writes). */
  readonly context: number;
  /** The most recent turns, oldest first (a short window: /usage shows deltas, not history). */
  readonly turns: readonly TurnUsage[];
  /** Tokens per model id, for the cost estimate (a session can use several: /model, subagents). */
  readonly byModel: Readonly<Record<string, TokenCounts>>;
  /** Calls cut off before the provider reported their usage: their counts are partly estimated. */
  readonly estimatedCalls: number;
  /** Auto mode's classifier calls (also counted in the totals above), for their own line in /usage. */
  readonly classifier: { readonly calls: number; readonly byModel: Readonly<Record<string, TokenCounts>> };
}

/** What the full view shows: a card (by id, nested ones too) or the waiting approval. */
export interface ViewerSource {
  readonly kind: 'item' | 'approval';
  readonly id: string;
}

/** The full view of a card's or an approval's content, over the transcript. */
export interface ViewerState {
  readonly source: ViewerSource;
  /** First content line shown. */
  readonly top: number;
  /** After `/`: the query being typed, or the last one (n and N repeat it). */
  readonly search?: { readonly query: string; readonly typing: boolean };
  /** The content line of the current match. */
  readonly match?: number;
}

/** A small modal over the prompt: the `#` memory question or the resume picker. */
export type Dialog =
  | { readonly kind: 'memory'; readonly text: string }
  | { readonly kind: 'resume'; readonly sessions: readonly SessionSummary[]; readonly filter: string; readonly index: number; readonly currentId?: string; readonly now: number }
  /** `/copy code`: the answers' code blocks, newest first, one to copy. */
  | { readonly kind: 'copyCode'; readonly blocks: readonly { readonly lang: string; readonly text: string }[]; readonly index: number }
  /** Ctrl+R: earlier prompts (oldest first, as kept) searched for `query`; `index` into the matches, newest first. */
  | { readonly kind: 'historySearch'; readonly history: readonly string[]; readonly query: string; readonly index: number }
  /** `@` in the prompt: fuzzy file completion; `matches` are workspace paths (folders end in /). */
  | { readonly kind: 'mention'; readonly query: string; readonly index: number; readonly matches: readonly string[]; readonly loading: boolean }
  /** Esc Esc on an empty prompt, /rewind: earlier prompts (oldest first); after one is picked (`chosen`), what to restore. */
  | RewindDialog
  /** /plugin: installed and available plugins; Enter installs or switches the one under the cursor. */
  | PluginDialog
  /** /btw: a side question and its answer (not kept in the conversation); Esc closes it. */
  | SideQuestionDialog
  /** /model: the configured providers' models; Enter switches to the one under the cursor. */
  | ModelDialog;

export interface ModelDialog {
  readonly kind: 'model';
  /** Which opening of the picker this is: a list that arrives after it was closed and opened again is dropped. */
  readonly opened: number;
  /** Grouped by provider, the current one first (src/providers/model-catalog.ts). */
  readonly rows: readonly ModelRow[];
  readonly current: { readonly provider: string; readonly model: string };
  readonly filter: string;
  /** Into the rows the filter leaves. */
  readonly index: number;
  /** The thinking effort to switch with (←→), for a model that takes one; absent: as started (--effort). */
  readonly effort?: Effort;
  /** While the providers' model lists are being asked for. */
  readonly loading: boolean;
  readonly problems: readonly string[];
  /** $CAIRN_HOME/config.json: where providers are added and the default is saved. */
  readonly configFile: string;
  /** What the last key did or could not do (a turn is running, a key is missing). */
  readonly status?: string;
}

export interface SideQuestionDialog {
  readonly kind: 'btw';
  readonly question: string;
  /** Absent while the model is answering. */
  readonly answer?: string;
  readonly error?: string;
}

export interface PluginDialog {
  readonly kind: 'plugins';
  readonly rows: readonly { readonly id: string; readonly version?: string; readonly description: string; readonly contents: string; readonly installed: boolean; readonly enabled: boolean; readonly notAdded?: boolean }[];
  readonly index: number;
  /** What the last Enter did, or is doing. */
  readonly status?: string;
}

export interface RewindDialog {
  readonly kind: 'rewind';
  /** `id`: the prompt's number in the session (PromptMark), which its file changes are kept under. */
  readonly points: readonly { readonly turn: number; readonly id: number; readonly text: string }[];
  readonly index: number;
  /** Set once a prompt is picked: the files restoring code would change (shown first) and the option under the cursor. */
  readonly chosen?: { readonly turn: number; readonly id: number; readonly text: string; readonly files: readonly { readonly path: string; readonly action: 'restore' | 'delete' }[]; readonly option: number };
}

export interface TuiState {
  readonly items: readonly TranscriptItem[];
  readonly nextId: number;
  readonly info: SessionInfo;
  readonly busy: boolean;
  readonly phase?: { readonly kind: Phase; readonly since: number };
  readonly usage: UsageTotals;
  /** Prices for the cost estimate in /usage and the status bar. */
  readonly pricing: PriceTable;
  readonly contextLimit: number;
  readonly approvals: readonly PermissionRequest[];
  readonly approval: ApprovalUi;
  readonly queued: readonly string[];
  readonly focus: 'editor' | 'transcript';
  readonly selectedId?: string;
  readonly scroll: ScrollState;
  readonly palette: { readonly index: number; readonly dismissedFor?: string };
  readonly editor: EditorState;
  readonly themeName: ThemeName;
  /** When the first Ctrl+C on an idle prompt was pressed; a second one exits. */
  readonly exitArmedAt?: number;
  readonly dialog?: Dialog;
  /** The full view (Enter on a card, v in an approval); an approval waits behind it. */
  readonly viewer?: ViewerState;
  /** The latest todo_write list; shown above the prompt while it has open items. */
  readonly todos: readonly TodoItem[];
  /** The plan the user approved last (exit_plan_mode), pinned above the prompt; /plan shows it again. */
  readonly plan?: ApprovedPlan;
  readonly toasts: readonly Toast[];
  /** Prompts sent with large pastes, until their user_prompt event shows them folded. */
  readonly pastedPrompts: readonly { readonly text: string; readonly display: string }[];
  readonly background: BackgroundCounts;
  /** The MCP servers' states (mcp_servers events); absent until the first one. */
  readonly mcpServers?: readonly { readonly name: string; readonly state: string }[];
}

export type UiAction =
  | { type: 'event'; event: AgentEvent; at: number }
  /** `code`: what kind of notice it is (a plan shown again is drawn as Markdown). */
  | { type: 'notice'; level: NoticeLevel; message: string; code?: string }
  | { type: 'editor'; editor: EditorState }
  | { type: 'queue'; text: string }
  /** The terminal holds a thumbnail of the image labelled `label`: prompts that carried it show it. */
  | { type: 'thumbnail'; label: string; image: number; columns: number; rows: number }
  /**
   * Queued prompts taken back before they ran (Esc, or Up for the last one): `taken` goes into
   * the editor, in order, before the draft; `remaining` is what still waits.
   */
  | { type: 'unqueue'; taken: readonly QueuedPrompt[]; remaining: readonly string[] }
  | { type: 'scroll'; delta: number; total: number; height: number }
  /** Lines were added above the view (older items loaded): keep the same content in view. */
  | { type: 'scrollShift'; lines: number }
  | { type: 'scrollTo'; to: 'top' | 'bottom'; total: number; height: number }
  /** `selectedId`: the card selected on entering the transcript (the newest one in view). */
  | { type: 'focus'; focus: 'editor' | 'transcript'; selectedId?: string }
  | { type: 'select'; id: string | undefined }
  | { type: 'toggle'; id: string; currentlyExpanded: boolean }
  | { type: 'approvalChoice'; choice: number }
  | { type: 'approvalText'; text: string; pasting?: string }
  | { type: 'questionUi'; ui: QuestionUi }
  /** A prompt about to be sent held large pastes: its transcript line shows the placeholders. */
  | { type: 'pastedPrompt'; text: string; display: string }
  /** `id`: the ask's request_id (askKey); `at`: when it was answered; an allowed tool's timer starts then. */
  | { type: 'approvalAnswered'; id: string; allowed: boolean; at?: number }
  | { type: 'palette'; index?: number; dismissedFor?: string }
  | { type: 'theme'; name: ThemeName }
  | { type: 'usageReset' }
  | { type: 'sessionName'; name: string }
  | { type: 'exitArm'; at: number | undefined }
  /** The pinned plan block: folded to its title line or unfolded (the plan's text, capped). */
  | { type: 'togglePlan' }
  | { type: 'dialog'; dialog: Dialog | undefined }
  | { type: 'viewer'; viewer: ViewerState | undefined }
  /** A resumed session's recorded events, applied at once before the first frame. */
  | { type: 'recorded'; events: readonly AgentEvent[]; at: number }
  | BackgroundAction;

/** What a subagent has done so far, kept on the `agent` card that started it. */
export interface SubagentActivity {
  readonly agentType: string;
  /** 1 for a child of the main agent, 2 for a grandchild. */
  readonly depth: number;
  readonly startedAt: number;
  readonly turns: number;
  /** Its own tokens plus its children's. */
  readonly input: number;
  readonly output: number;
  /** Its tool cards in call order. Their ids are qualified by this card's id (see nestedId). */
  readonly tools: readonly ToolItem[];
  /** The tail of its latest text, for the activity line. */
  readonly text: string;
  readonly ended?: { readonly reason: TerminalReason; readonly at: number };
}
