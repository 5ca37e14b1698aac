import { GENERIC_ERROR_MESSAGE, REQUEST_TIMEOUT_MS, type ErrorBody } from '@afrofx/shared';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { clearSessionsAndReload, tokenForUrl } from '../lib/session';
import { showToast, type ToastTone } from '../lib/toast';

/** Every failed call reaches the UI as a status and a message it can show as is. */
export interface ApiError {
  status: number | string;
  message: string;
}

/**
 * Per-endpoint options. SPEC §8: mutation errors are toasted with the server message;
 * an endpoint may toast them in another style or show them itself (`false`).
 */
export interface ApiExtraOptions {
  errorToast?: ToastTone | false;
}

/** A call: a path under `/v1/`, with its query parameters, a method and a JSON body when it is not a GET. */
export type ApiCall =
  string | { url: string; params?: Record<string, string | undefined>; method?: string; body?: unknown };

/** The path with its query string; parameters left undefined are left out. */
function withParams(url: string, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value);
  const search = query.toString();
  return search ? `${url}?${search}` : url;
}

/**
 * The transport: `fetch` with the stored token, a JSON body and a timeout, and the JSON answer or the SPEC §8
 * message for a failure. RTK Query's `fetchBaseQuery` does the same with much that this app never asks of it
 * (response handlers, form bodies, header and cache options), at about 1 kB of compressed script on `/` (issue 11,
 * point 2).
 */
async function send(
  { url, params, method = 'GET', body }: Exclude<ApiCall, string>,
  signal: AbortSignal,
): Promise<{ data: unknown; error?: undefined } | { error: ApiError }> {
  const headers = new Headers();
  const token = tokenForUrl(url);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  // One signal for both ways a call stops early: RTK Query gives up on it, or it outlasts the timeout.
  const stop = new AbortController();
  const abort = () => stop.abort();
  signal.addEventListener('abort', abort);
  let timedOut = false;
  const timer = window.setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, REQUEST_TIMEOUT_MS);
  try {
    let response: Response;
    try {
      response = await fetch(`/v1/${withParams(url, params)}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: stop.signal,
      });
    } catch {
      if (timedOut)
        return {
          error: { status: 'TIMEOUT_ERROR', message: `timeout of ${REQUEST_TIMEOUT_MS} ms exceeded` },
        };
      return {
        error: { status: 'FETCH_ERROR', message: signal.aborted ? 'Request aborted' : 'Network Error' },
      };
    }
    let data: unknown;
    try {
      const text = await response.text();
      data = text ? JSON.parse(text) : null;
    } catch {
      return { error: { status: response.status, message: GENERIC_ERROR_MESSAGE } };
    }
    if (response.ok) return { data };
    const message = (data as Partial<ErrorBody> | null)?.message;
    return {
      error: {
        status: response.status,
        message: typeof message === 'string' && message ? message : GENERIC_ERROR_MESSAGE,
      },
    };
  } finally {
    window.clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  }
}

const baseQuery: BaseQueryFn<ApiCall, unknown, ApiError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions,
) => {
  const request = typeof args === 'string' ? { url: args } : args;
  const result = await send(request, api.signal);
  if (!result.error) return result;

  const { error } = result;
  // A 401 on a call that carried a token means the session ended; a failed sign-in carries none
  // and must show its message instead.
  if (error.status === 401 && tokenForUrl(request.url)) {
    clearSessionsAndReload();
    return { error };
  }
  const tone = extraOptions?.errorToast ?? 'error';
  if (api.type === 'mutation' && tone) showToast(error.message, tone);
  return { error };
};

/** The one API for the `/v1/` base; features add their endpoints with `injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Rate', 'Subscriber', 'Plan', 'App', 'ApiKey', 'Webhook'],
  endpoints: () => ({}),
});
