// How a failed model call is described: retry.ts decides on it, stream-idle.ts and the providers make one.

/** How one failed attempt is judged. Built by the provider from its SDK's error. */
export interface Failure {
  retryable: boolean;
  /** Short cause for the retry notice: `overloaded (529)`, `connection reset`. */
  label: string;
  /** What the user reads when the call fails for good; says what to fix where it can. */
  message: string;
  status?: number;
  retryAfterMs?: number;
}

/** What a provider needs to phrase errors in terms the user can act on. */
export interface FailureContext {
  provider: string;
  model: string;
  baseUrl: string;
  apiKeyEnv?: string;
}
