
/** Whose published formula counts an image: Anthropic's, or OpenAI's tiles (OpenAI-compatible servers). */
export type ImageTokenFormula = 'anthropic' | 'openai';

/** The formula for a provider: its API's; Anthropic's for one without (the offline model counts as Anthropic does). */
export function imageTokenFormulaFor(provider: { api?: 'anthropic' | 'openai' }): ImageTokenFormula {
  return provider.api ?? 'anthropic';
}

/** Anthropic: tokens = width x height / 750 (the image as sent; cairn already scaled it to the limits). */
export function anthropicImageTokens(width: number, height: number): number {
  return Math.ceil((width * height) / 750);
}

/**
 * OpenAI, high detail: fit inside 2048x2048, then the shortest side down to 768; 170 tokens per
 * 512-pixel tile plus 85.
 */
export function openaiImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  w *= shorten;
  h *= shorten;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** Anthropic counts each PDF page as its text plus an image of the page (about this many tokens for a letter page). */
const PDF_PAGE_IMAGE_TOKENS = 1600;

/** An image's tokens by the provider's formula. */
export function imageTokens(width: number, height: number, formula: ImageTokenFormula = 'anthropic'): number {
  return formula === 'openai' ? openaiImageTokens(width, height) : anthropicImageTokens(width, height);
}

/** What a PDF's pages cost beyond their text: Anthropic sends each page as an image too; a provider given the text only, nothing. */
export function pdfPageTokens(pages: number, formula: ImageTokenFormula = 'anthropic'): number {
  return formula === 'anthropic' ? PDF_PAGE_IMAGE_TOKENS * pages : 0;
}
