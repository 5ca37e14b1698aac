import { GENERIC_ERROR_MESSAGE, REQUEST_TIMEOUT_MS, type ErrorBody } from '@afrofx/shared';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
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

const urlOf = (args: string | FetchArgs) => (typeof args === 'string' ? args : args.url);

const fetchQuery = fetchBaseQuery({
  baseUrl: '/v1/',
  timeout: REQUEST_TIMEOUT_MS,
  prepareHeaders: (headers, { arg }) => {
    const token = tokenForUrl(urlOf(arg));
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

function statusOf(error: FetchBaseQueryError): number | string {
  return 'originalStatus' in error ? error.originalStatus : error.status;
}

// SPEC §8 transport messages.
function toApiError(error: FetchBaseQueryError): ApiError {
  const status = statusOf(error);
  if (typeof error.status === 'number') {
    const body = error.data as Partial<ErrorBody> | null | undefined;
    const message = typeof body?.message === 'string' && body.message ? body.message : GENERIC_ERROR_MESSAGE;
    return { status, message };
  }
  switch (error.status) {
    case 'TIMEOUT_ERROR':
      return { status, message: `timeout of ${REQUEST_TIMEOUT_MS} ms exceeded` };
    case 'FETCH_ERROR':
      return { status, message: /abort/i.test(error.error) ? 'Request aborted' : 'Network Error' };
    default:
      return { status, message: GENERIC_ERROR_MESSAGE };
  }
}

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions,
) => {
  const result = await fetchQuery(args, api, {});
  if (!result.error) return { data: result.data, meta: result.meta };

  const error = toApiError(result.error);
  // A 401 on a call that carried a token means the session ended; a failed sign-in carries none
  // and must show its message instead.
  if (error.status === 401 && tokenForUrl(urlOf(args))) {
    clearSessionsAndReload();
    return { error, meta: result.meta };
  }
  const tone = extraOptions?.errorToast ?? 'error';
  if (api.type === 'mutation' && tone) showToast(error.message, tone);
  return { error, meta: result.meta };
};

/** The one API for the `/v1/` base; features add their endpoints with `injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Rate', 'Subscriber', 'Plan', 'App', 'ApiKey', 'Webhook'],
  endpoints: () => ({}),
});
