// --fallback-model (Claude Code's flag): once a call has used up its retries on an overloaded or
// failing server (529, 5xx), it is made again with the fallback model, and the session stays on it.
import { ProviderError, type ModelProvider, type ModelRequest, type ModelStreamEvent } from './provider.js';

/** Overload and server errors, after the retries ran out; not a bad key, a bad request or a cut connection. */
function isOverloadOrServerError(error: unknown): error is ProviderError {
  return error instanceof ProviderError && error.retryable && error.status !== undefined && error.status >= 500;
}

export function withFallbackModel(primary: ModelProvider, fallback: () => ModelProvider): ModelProvider {
  let switched: ModelProvider | undefined;
  const onFallback = (p: ModelProvider, request: ModelRequest) => p.stream({ ...request, model: p.model });
  return {
    name: primary.name,
    get model() {
      return (switched ?? primary).model;
    },
    get contextWindow() {
      return (switched ?? primary).contextWindow;
    },
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
      if (switched) {
        yield* onFallback(switched, request);
        return;
      }
      try {
        yield* primary.stream(request);
        return;
      } catch (error) {
        if (request.signal.aborted || !isOverloadOrServerError(error)) throw error;
        switched = fallback();
        // code 'retry': what the failed attempt streamed is dropped, as after any retry.
        yield {
          type: 'notice',
          level: 'warning',
          code: 'retry',
          message: `${error.message}; switching to the fallback model ${switched.model} (--fallback-model) for the rest of the session`,
        };
      }
      yield* onFallback(switched, request);
    },
  };
}
