// The spending cap (`maxBudgetUsd` in settings, `--max-budget-usd`): counts what the session's model
// calls cost at the price table's rates (subagents' included, and a resumed session's earlier calls,
// as the status row counts them), tells once at 80%, and refuses the next model call once the spend
// has reached the cap or that call's input alone would pass it. The session and its file are kept.
import type { AgentEvent } from '../events.js';
import { costOf, formatCost, priceFor, type PriceTable } from '../pricing.js';
import { usageIn } from '../usage-events.js';

/** Where the cap came from, for messages: `--max-budget-usd` or `<file>: maxBudgetUsd`. */
export interface SpendCapSetting {
  usd: number;
  source: string;
}

const WARN_AT = 0.8;

export class SpendCap {
  private spent = 0;
  private warned = false;
  private readonly unpriced = new Set<string>();

  constructor(
    readonly setting: SpendCapSetting,
    private readonly pricing: PriceTable,
  ) {}

  get capUsd(): number {
    return this.setting.usd;
  }

  get spentUsd(): number {
    return this.spent;
  }

  /** Counts the model calls in an event; returns what to tell the user (80% reached, a model with no price). */
  observe(event: AgentEvent, sessionModel: string): string[] {
    const said: string[] = [];
    for (const u of usageIn(event)) {
      const model = u.model ?? sessionModel;
      const price = priceFor(this.pricing, model);
      if (!price) {
        if (!this.unpriced.has(model)) {
          this.unpriced.add(model);
          said.push(`The spending cap cannot count ${model}'s calls: the price table has no price for it (add one under "pricing" in config.json).`);
        }
        continue;
      }
      this.spent += costOf(
        { input: u.usage.input_tokens, output: u.usage.output_tokens, cacheRead: u.usage.cache_read_input_tokens ?? 0, cacheWrite: u.usage.cache_creation_input_tokens ?? 0 },
        price,
      );
    }
    if (!this.warned && this.spent >= WARN_AT * this.capUsd && this.spent < this.capUsd) {
      this.warned = true;
      said.push(`Spent ${formatCost(this.spent)} of the ${formatCost(this.capUsd)} spending cap (${Math.floor((this.spent / this.capUsd) * 100)}%, ${this.setting.source}); cairn stops before the model call that would pass it.`);
    }
    return said;
  }

  /** Before a model call of `inputTokens` (estimated) to `model`: why it must not be made, or undefined. */
  refusal(next: { model: string; inputTokens: number }): string | undefined {
    const price = priceFor(this.pricing, next.model);
    const inputCost = price ? (next.inputTokens * price.input) / 1_000_000 : 0;
    if (this.spent < this.capUsd && this.spent + inputCost <= this.capUsd) return undefined;
    const why = this.spent >= this.capUsd ? `${formatCost(this.spent)} spent` : `${formatCost(this.spent)} spent and the next call's input alone costs about ${formatCost(inputCost)}`;
    return `Spending cap reached: ${why}, cap ${formatCost(this.capUsd)} (${this.setting.source}). Stopped before the next model call; the session is kept: continue it with a higher cap.`;
  }
}

/**
 * The cap in force from the settings layers (lowest precedence first) and the flag: the flag when
 * given (the user's own command line), else the lowest `maxBudgetUsd` any file sets, so a project
 * can lower the user's cap but never raise it. Bad values are named in `notices` and not used.
 */
export function spendCapSetting(layers: readonly { file: string; data: Record<string, unknown> }[], flag: number | undefined, notices: string[]): SpendCapSetting | undefined {
  if (flag !== undefined) return { usd: flag, source: '--max-budget-usd' };
  let found: SpendCapSetting | undefined;
  for (const layer of layers) {
    const value = layer.data['maxBudgetUsd'];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
      notices.push(`${layer.file}: maxBudgetUsd: expected an amount in dollars above 0; not used`);
      continue;
    }
    if (!found || value < found.usd) found = { usd: value, source: `maxBudgetUsd in ${layer.file}` };
  }
  return found;
}
