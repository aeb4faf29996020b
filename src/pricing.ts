// Estimated cost per model. Prices change: the table says when it was checked, and config.json's
// `pricing` overrides or adds entries ("my-model": { "input": 1, "output": 2 }).

/** US dollars per million tokens. A missing cache price is charged at the input price. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** When the built-in prices were checked against the providers' pricing pages. */
export const PRICES_CHECKED = '2026-11-30';

const p = (input: number, output: number, cacheRead?: number, cacheWrite?: number): ModelPrice => ({
  input,
  output,
  ...(cacheRead !== undefined ? { cacheRead } : {}),
  ...(cacheWrite !== undefined ? { cacheWrite } : {}),
});

/**
 * Standard API prices (no batch or regional surcharge; 5-minute cache writes). Keys are model ids
 * or their prefixes: the longest key that ends at a word boundary of the id wins, so dated ids
 * (claude-sonnet-4-5-20250929) and variants without an entry take their family's price.
 * Haiku 5.5 is billed more above 100k prompt tokens; only the lower band is here.
 */
export const BUILTIN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-fable-5-1': p(10, 50, 0.25, 12.5),
  'claude-mythos-5-1': p(10, 50, 0.25, 12.5),
  'claude-fable-5': p(10, 50, 1, 12.5),
  'claude-mythos-5': p(10, 50, 1, 12.5),
  'claude-opus-5-5': p(4, 20, 0.2, 5),
  'claude-opus-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4-8': p(5, 25, 0.5, 6.25),
  'claude-opus-4-7': p(5, 25, 0.5, 6.25),
  'claude-opus-4-6': p(5, 25, 0.5, 6.25),
  'claude-opus-4-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4-1': p(15, 75, 1.5, 18.75),
  'claude-opus-4': p(15, 75, 1.5, 18.75),
  'claude-sonnet-5-5': p(2, 10, 0.1, 2.5),
  'claude-sonnet-5': p(2, 10, 0.2, 2.5),
  'claude-sonnet-4': p(3, 15, 0.3, 3.75),
  'claude-haiku-5-5': p(0.1, 0.5, 0.01, 0.125),
  'claude-haiku-4-5': p(1, 5, 0.1, 1.25),
  'claude-3-5-haiku': p(0.8, 4, 0.08, 1),
  'gpt-5.5': p(5, 30, 0.5),
  'gpt-5.4': p(2.5, 15, 0.25),
  'gpt-5.4-mini': p(0.75, 4.5, 0.075),
  'gpt-5.4-nano': p(0.2, 1.25, 0.02),
  'gpt-5.2': p(1.75, 14, 0.175),
  'gpt-5.1': p(1.25, 10, 0.125),
  'gpt-5': p(1.25, 10, 0.125),
  'gpt-5-mini': p(0.25, 2, 0.025),
  'gpt-5-nano': p(0.05, 0.4, 0.005),
  'gpt-4.1': p(2, 8, 0.5),
  'gpt-4.1-mini': p(0.4, 1.6, 0.1),
  'gpt-4.1-nano': p(0.1, 0.4, 0.025),
  'gpt-4o': p(2.5, 10, 1.25),
  'gpt-4o-mini': p(0.15, 0.6, 0.075),
  // The scripted model runs on this machine.
  offline: p(0, 0),
};

export interface PriceTable {
  readonly checked: string;
  readonly prices: Readonly<Record<string, ModelPrice>>;
  /** Keys that came from config.json, for /usage to say so. */
  readonly fromConfig: readonly string[];
}

export const builtinPriceTable: PriceTable = { checked: PRICES_CHECKED, prices: BUILTIN_PRICES, fromConfig: [] };

/** Token counts of one model, as /usage and the status bar keep them. */
export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** The price of a model id, or undefined when the table has none. */
export function priceFor(table: PriceTable, model: string): ModelPrice | undefined {
  const id = model.toLowerCase();
  const exact = table.prices[id];
  if (exact) return exact;
  // Router ids name the vendor (anthropic/claude-sonnet-5.5) and write Claude versions with dots.
  const bare = id.slice(id.lastIndexOf('/') + 1);
  const candidates = bare.startsWith('claude-') ? [bare, bare.replace(/\./g, '-')] : [bare];
  let best: { key: string; price: ModelPrice } | undefined;
  for (const [key, price] of Object.entries(table.prices)) {
    const k = key.toLowerCase();
    for (const c of candidates) {
      if (c === k || (c.startsWith(k) && /^[-@:[]/.test(c.slice(k.length)))) {
        if (!best || k.length > best.key.length) best = { key: k, price };
      }
    }
  }
  return best?.price;
}

export interface CostSummary {
  /** Dollars for the models that have a price. */
  readonly total: number;
  readonly perModel: readonly { readonly model: string; readonly tokens: TokenCounts; readonly cost?: number }[];
  /** Models used that the table has no price for: the total leaves them out. */
  readonly unpriced: readonly string[];
}

/** The estimated cost of each model's tokens, and of all of them. */
export function costSummary(byModel: Readonly<Record<string, TokenCounts>>, table: PriceTable): CostSummary {
  let total = 0;
  const unpriced: string[] = [];
  const perModel = Object.entries(byModel).map(([model, tokens]) => {
    const price = priceFor(table, model);
    if (!price) {
      unpriced.push(model);
      return { model, tokens };
    }
    const cost = costOf(tokens, price);
    total += cost;
    return { model, tokens, cost };
  });
  return { total, perModel, unpriced };
}

/** Dollars for these tokens at this price. */
export function costOf(tokens: TokenCounts, price: ModelPrice): number {
  const perToken = (perMillion: number): number => perMillion / 1_000_000;
  return (
    tokens.input * perToken(price.input) +
    tokens.output * perToken(price.output) +
    tokens.cacheRead * perToken(price.cacheRead ?? price.input) +
    tokens.cacheWrite * perToken(price.cacheWrite ?? price.input)
  );
}

/** "$0.42", "$0.0031", "$12.10": enough digits that a small session does not read as free. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}
