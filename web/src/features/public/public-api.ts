import type {
  ApiEnvelope,
  Market,
  OfficialRate,
  PageSeed,
  PagedResponse,
  Plan,
  PublicRateHistoryQuery,
  PublicRateOhlcQuery,
  Quote,
  RateHistory,
  RateOhlc,
  Status,
} from '@afrofx/shared';
import { api } from '../../api/base-api';

const publicApi = api.injectEndpoints({
  endpoints: (build) => ({
    fetchRates: build.query<Quote[], Market>({
      query: (market) => `user/fetch_rates/${market}`,
      transformResponse: (response: ApiEnvelope<Quote[]>) => response.data,
      providesTags: (_result, _error, market) => [{ type: 'Rate', id: market }],
    }),
    fetchOfficialRates: build.query<OfficialRate[], void>({
      query: () => 'user/official_rates',
      transformResponse: (response: ApiEnvelope<OfficialRate[]>) => response.data,
    }),
    fetchRateHistory: build.query<RateHistory, PublicRateHistoryQuery>({
      query: (params) => ({ url: 'user/rates/history', params }),
      transformResponse: (response: ApiEnvelope<RateHistory>) => response.data,
      providesTags: (_result, _error, { market }) => [{ type: 'Rate', id: market }],
    }),
    fetchRateCandles: build.query<RateOhlc, PublicRateOhlcQuery>({
      query: (params) => ({ url: 'user/rates/ohlc', params }),
      transformResponse: (response: ApiEnvelope<RateOhlc>) => response.data,
      providesTags: (_result, _error, { market }) => [{ type: 'Rate', id: market }],
    }),
    createEmailSub: build.mutation<ApiEnvelope<unknown>, { email: string }>({
      query: (body) => ({ url: 'user/create_email_sub', method: 'POST', body }),
    }),
    confirmSubscription: build.mutation<ApiEnvelope<unknown>, string>({
      query: (id) => ({ url: `user/confirmation/${encodeURIComponent(id)}`, method: 'POST' }),
      // The confirmation page shows the server message itself (SPEC §8).
      extraOptions: { errorToast: false },
    }),
    unsubscribe: build.mutation<ApiEnvelope<unknown>, string>({
      query: (token) => ({ url: `user/unsubscribe/${encodeURIComponent(token)}`, method: 'POST' }),
      // The unsubscribe page shows the server message itself.
      extraOptions: { errorToast: false },
    }),
    fetchStatus: build.query<Status, void>({
      query: () => 'status',
      transformResponse: (response: ApiEnvelope<Status>) => response.data,
    }),
    fetchPlans: build.query<PagedResponse<Plan>, number>({
      query: (page) => `account/fetch_plans?page=${page}`,
      providesTags: [{ type: 'Plan', id: 'LIST' }],
    }),
  }),
});

/**
 * Puts what a server-rendered page was drawn from (rates, and the plans or the status on their pages) into the
 * cache, so that the app's first render draws the server's HTML.
 */
export const seedPageData = (seed: PageSeed) =>
  publicApi.util.upsertQueryEntries([
    ...Object.entries(seed.rates).map(([market, quotes]) => ({
      endpointName: 'fetchRates' as const,
      arg: market as Market,
      value: quotes,
    })),
    ...(seed.plans ? [{ endpointName: 'fetchPlans' as const, arg: 1, value: seed.plans }] : []),
    ...(seed.status ? [{ endpointName: 'fetchStatus' as const, arg: undefined, value: seed.status }] : []),
  ]);

export const {
  useFetchRatesQuery,
  useFetchOfficialRatesQuery,
  useFetchRateHistoryQuery,
  useFetchRateCandlesQuery,
  useCreateEmailSubMutation,
  useConfirmSubscriptionMutation,
  useUnsubscribeMutation,
  useFetchPlansQuery,
  useFetchStatusQuery,
} = publicApi;
