import type {
  ApiEnvelope,
  ApiKey,
  App,
  ChangePasswordInput,
  CreateAppInput,
  CreateTransactionInput,
  DeveloperSession,
  InitializePaymentInput,
  PagedResponse,
  InitializedPayment,
  Plan,
  Purchase,
  Rate,
  Receipt,
  RequestAnalytics,
  RequestLogPage,
  RequestResetInput,
  ResetPasswordInput,
  SigninInput,
  SignupInput,
  Subscription,
  Transaction,
  CreateWebhookInput,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@afrofx/shared';
import { usdBuyRate } from '@afrofx/shared';
import { api } from '../../api/base-api';

const nextPage = <T>(lastPage: PagedResponse<T>) => lastPage.pagination.next ?? undefined;
const pageOptions = { initialPageParam: 1, getNextPageParam: nextPage };
const app = (appId: string) => encodeURIComponent(appId);

/** One webhook endpoint of one app. */
export interface WebhookRef {
  appId: string;
  endpointId: string;
}

const developerApi = api.injectEndpoints({
  endpoints: (build) => ({
    // The same answer for a new and a taken address (no account enumeration): only the message.
    signup: build.mutation<ApiEnvelope<null>, SignupInput>({
      query: (body) => ({ url: 'account/signup', method: 'POST', body }),
    }),
    // A query rather than a mutation: one call per link however often the page renders.
    activateAccount: build.query<ApiEnvelope<null>, string>({
      query: (token) => `account/activate_account/${encodeURIComponent(token)}`,
    }),
    signin: build.mutation<ApiEnvelope<DeveloperSession>, SigninInput>({
      query: (body) => ({ url: 'account/signin', method: 'POST', body }),
    }),
    signout: build.mutation<ApiEnvelope<null>, void>({
      query: () => ({ url: 'account/signout', method: 'POST' }),
      // Signing out goes ahead in this browser even when the server cannot be reached.
      extraOptions: { errorToast: false },
    }),
    resendActivation: build.mutation<ApiEnvelope<null>, RequestResetInput>({
      query: (body) => ({ url: 'account/resend_activation', method: 'POST', body }),
    }),
    requestPasswordReset: build.mutation<ApiEnvelope<null>, RequestResetInput>({
      query: (body) => ({ url: 'account/request_reset_password', method: 'POST', body }),
    }),
    checkResetLink: build.query<ApiEnvelope<null>, string>({
      query: (code) => `account/reset_password/${encodeURIComponent(code)}`,
    }),
    resetPassword: build.mutation<ApiEnvelope<null>, ResetPasswordInput>({
      query: (body) => ({ url: 'account/reset_password', method: 'POST', body }),
    }),
    changePassword: build.mutation<ApiEnvelope<{ token: string }>, ChangePasswordInput>({
      query: (body) => ({ url: 'account/change_password', method: 'POST', body }),
    }),
    fetchApps: build.query<App[], void>({
      query: () => 'apps/all_apps',
      transformResponse: (response: ApiEnvelope<App[]>) => response.data,
      providesTags: [{ type: 'App', id: 'LIST' }],
    }),
    createApp: build.mutation<ApiEnvelope<App>, CreateAppInput>({
      query: (body) => ({ url: 'apps/create_app', method: 'POST', body }),
      invalidatesTags: [{ type: 'App', id: 'LIST' }],
    }),
    fetchApiKey: build.query<ApiKey | null, string>({
      query: (appId) => `account/api_key/${app(appId)}`,
      transformResponse: (response: ApiEnvelope<ApiKey | null>) => response.data,
      providesTags: (_result, _error, appId) => [{ type: 'ApiKey', id: appId }],
    }),
    generateApiKey: build.mutation<ApiEnvelope<ApiKey>, string>({
      query: (appId) => ({ url: `account/generate_api_key/${app(appId)}`, method: 'POST' }),
      invalidatesTags: (_result, _error, appId) => [{ type: 'ApiKey', id: appId }],
    }),
    fetchAnalytics: build.query<RequestAnalytics, string>({
      query: (appId) => `account/app_request_analytics/${app(appId)}`,
      transformResponse: (response: ApiEnvelope<RequestAnalytics>) => response.data,
    }),
    // By cursor: each page starts after the last row shown, as fast deep in a long log as at its top.
    fetchRequests: build.infiniteQuery<RequestLogPage, string, string>({
      infiniteQueryOptions: {
        initialPageParam: '',
        getNextPageParam: (lastPage) => lastPage.pagination.cursor ?? undefined,
      },
      query: ({ queryArg, pageParam }) =>
        `account/app_request/${app(queryArg)}${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
    }),
    fetchSubscription: build.query<Subscription | null, string>({
      query: (appId) => `account/fetch_subscription/${app(appId)}`,
      transformResponse: (response: ApiEnvelope<Subscription | null>) => response.data,
    }),
    fetchUpcomingSubscription: build.query<Subscription | null, string>({
      query: (appId) => `account/fetch_upcoming_subscription/${app(appId)}`,
      transformResponse: (response: ApiEnvelope<Subscription | null>) => response.data,
    }),
    fetchTransactions: build.infiniteQuery<PagedResponse<Transaction>, string, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ queryArg, pageParam }) => `account/fetch_transactions/${app(queryArg)}?page=${pageParam}`,
    }),
    fetchReceipts: build.infiniteQuery<PagedResponse<Receipt>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `account/receipts?page=${pageParam}`,
    }),
    fetchReceipt: build.query<Receipt, string>({
      query: (reference) => `account/receipts/${encodeURIComponent(reference)}`,
      transformResponse: (response: ApiEnvelope<Receipt>) => response.data,
      // The purchase message and the receipt page handle a missing receipt themselves.
      extraOptions: { errorToast: false },
    }),
    // SPEC §7: the plans index is page 1.
    fetchPlansOnSale: build.query<Plan[], void>({
      query: () => 'account/fetch_plans?page=1',
      transformResponse: (response: PagedResponse<Plan>) => response.data,
      providesTags: [{ type: 'Plan', id: 'LIST' }],
    }),
    // SPEC §9: the NGN price uses the cash market's dollar buy rate (740 when there is none).
    fetchDollarBuyRate: build.query<number, void>({
      query: () => 'user/fetch_rates/black_market_cash',
      transformResponse: (response: ApiEnvelope<Rate[]>) => usdBuyRate(response.data),
      providesTags: [{ type: 'Rate', id: 'black_market_cash' }],
    }),
    initializePayment: build.mutation<
      ApiEnvelope<InitializedPayment>,
      { appId: string } & InitializePaymentInput
    >({
      query: ({ appId, ...body }) => ({
        url: `account/initialize_payment/${app(appId)}`,
        method: 'POST',
        body,
      }),
    }),
    createTransaction: build.mutation<ApiEnvelope<Purchase>, { appId: string } & CreateTransactionInput>({
      query: ({ appId, ...body }) => ({
        url: `account/create_transaction/${app(appId)}`,
        method: 'POST',
        body,
      }),
    }),
    fetchWebhooks: build.query<WebhookEndpoint[], string>({
      query: (appId) => `account/webhooks/${app(appId)}`,
      transformResponse: (response: ApiEnvelope<WebhookEndpoint[]>) => response.data,
      providesTags: (_result, _error, appId) => [{ type: 'Webhook', id: appId }],
    }),
    createWebhook: build.mutation<
      ApiEnvelope<WebhookEndpointWithSecret>,
      { appId: string } & CreateWebhookInput
    >({
      query: ({ appId, ...body }) => ({ url: `account/webhooks/${app(appId)}`, method: 'POST', body }),
      invalidatesTags: (_result, _error, { appId }) => [{ type: 'Webhook', id: appId }],
    }),
    deleteWebhook: build.mutation<ApiEnvelope<null>, WebhookRef>({
      query: ({ appId, endpointId }) => ({
        url: `account/webhooks/${app(appId)}/${app(endpointId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { appId }) => [{ type: 'Webhook', id: appId }],
    }),
    rotateWebhookSecret: build.mutation<ApiEnvelope<WebhookEndpointWithSecret>, WebhookRef>({
      query: ({ appId, endpointId }) => ({
        url: `account/webhooks/${app(appId)}/${app(endpointId)}/rotate_secret`,
        method: 'POST',
      }),
      invalidatesTags: (_result, _error, { appId }) => [{ type: 'Webhook', id: appId }],
    }),
    resumeWebhook: build.mutation<ApiEnvelope<WebhookEndpoint>, WebhookRef>({
      query: ({ appId, endpointId }) => ({
        url: `account/webhooks/${app(appId)}/${app(endpointId)}/resume`,
        method: 'POST',
      }),
      invalidatesTags: (_result, _error, { appId, endpointId }) => [
        { type: 'Webhook', id: appId },
        { type: 'Webhook', id: `log-${endpointId}` },
      ],
    }),
    sendWebhookTest: build.mutation<ApiEnvelope<WebhookDelivery>, WebhookRef>({
      query: ({ appId, endpointId }) => ({
        url: `account/webhooks/${app(appId)}/${app(endpointId)}/test`,
        method: 'POST',
      }),
      invalidatesTags: (_result, _error, { endpointId }) => [{ type: 'Webhook', id: `log-${endpointId}` }],
    }),
    fetchWebhookDeliveries: build.infiniteQuery<PagedResponse<WebhookDelivery>, WebhookRef, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ queryArg: { appId, endpointId }, pageParam }) =>
        `account/webhooks/${app(appId)}/${app(endpointId)}/deliveries?page=${pageParam}`,
      providesTags: (_result, _error, { endpointId }) => [{ type: 'Webhook', id: `log-${endpointId}` }],
    }),
  }),
});

export const {
  useSignupMutation,
  useActivateAccountQuery,
  useSigninMutation,
  useSignoutMutation,
  useResendActivationMutation,
  useCheckResetLinkQuery,
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
  useChangePasswordMutation,
  useFetchAppsQuery,
  useCreateAppMutation,
  useFetchApiKeyQuery,
  useGenerateApiKeyMutation,
  useFetchAnalyticsQuery,
  useFetchRequestsInfiniteQuery,
  useFetchSubscriptionQuery,
  useFetchUpcomingSubscriptionQuery,
  useFetchTransactionsInfiniteQuery,
  useFetchReceiptsInfiniteQuery,
  useFetchReceiptQuery,
  useFetchPlansOnSaleQuery,
  useFetchDollarBuyRateQuery,
  useInitializePaymentMutation,
  useCreateTransactionMutation,
  useFetchWebhooksQuery,
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useResumeWebhookMutation,
  useSendWebhookTestMutation,
  useFetchWebhookDeliveriesInfiniteQuery,
} = developerApi;

/** The cached delivery log, without subscribing: tells the log whether to keep polling. */
export const useWebhookDeliveriesState = developerApi.endpoints.fetchWebhookDeliveries.useInfiniteQueryState;
