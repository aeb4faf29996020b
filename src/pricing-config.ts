// config.json's `pricing` field, checked with zod (kept out of pricing.ts, which the first frame
// loads and which must not load zod).
import * as z from 'zod';
import { BUILTIN_PRICES, builtinPriceTable, PRICES_CHECKED, type ModelPrice, type PriceTable } from './pricing.js';

/** US dollars per million tokens. A missing cache price is charged at the input price. */
export const ModelPriceSchema: z.ZodType<ModelPrice> = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});

const PricingFieldSchema = z.record(z.string().min(1), ModelPriceSchema);

/**
 * The built-in table with config.json's `pricing` entries (`raw`) over it. Returns the problems
 * instead, each naming the file and field, when an entry is malformed.
 */
export function pricingFrom(raw: unknown, file: string): PriceTable | { problems: string[] } {
  if (raw === undefined) return builtinPriceTable;
  const parsed = PricingFieldSchema.safeParse(raw);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((issue) => `${file}: pricing${issue.path.map((k) => `.${String(k)}`).join('')}: ${issue.message}`) };
  }
  const own = Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k.toLowerCase(), v]));
  return { checked: PRICES_CHECKED, prices: { ...BUILTIN_PRICES, ...own }, fromConfig: Object.keys(own) };
}
