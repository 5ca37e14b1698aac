import { GENERIC_ERROR_MESSAGE, REQUEST_TIMEOUT_MS, type ErrorBody } from '@afrofx/shared';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { clearSessionAndReload, signedInForUrl } from '../lib/session';
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

/** A call: a path under `/v1/`, or the path with its query parameters (undefined ones left out), method and body. */
export type ApiCall = string | FetchArgs;

const request = fetchBaseQuery({
  baseUrl: '/v1/',
  timeout: REQUEST_TIMEOUT_MS,
  // The session cookie goes with every call; the server wants this header beside it on changes (docs/hardening.md).
  credentials: 'same-origin',
  prepareHeaders(headers) {
    headers.set('X-Requested-With', 'fetch');
    return headers;
  },
});

/** SPEC §8: the server's message when it sent one, else the generic one; the transport's own words otherwise. */
function apiError(error: FetchBaseQueryError): ApiError {
  switch (error.status) {
    case 'FETCH_ERROR':
      return { status: error.status, message: 'Network Error' };
    case 'TIMEOUT_ERROR':
      return { status: error.status, message: `timeout of ${REQUEST_TIMEOUT_MS} ms exceeded` };
    case 'PARSING_ERROR':
      return { status: error.originalStatus, message: GENERIC_ERROR_MESSAGE };
    case 'CUSTOM_ERROR':
      return { status: error.status, message: error.error };
    default: {
      const message = (error.data as Partial<ErrorBody> | null)?.message;
      return {
        status: error.status,
        message: typeof message === 'string' && message ? message : GENERIC_ERROR_MESSAGE,
      };
    }
  }
}

const baseQuery: BaseQueryFn<ApiCall, unknown, ApiError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions,
) => {
  const result = await request(args, api, extraOptions);
  if (!result.error) return { data: result.data, meta: result.meta };

  const error = apiError(result.error);
  // A 401 while signed in means the session ended (expired, or a password change elsewhere); a failed sign-in
  // happens signed out and must show its message instead.
  const url = typeof args === 'string' ? args : args.url;
  if (error.status === 401 && signedInForUrl(url)) {
    clearSessionAndReload(url);
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
  tagTypes: ['Rate', 'Subscriber', 'Plan', 'App', 'ApiKey', 'Webhook', 'Alert'],
  endpoints: () => ({}),
});
