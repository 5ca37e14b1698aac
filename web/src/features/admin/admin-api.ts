import type {
  AdminActivity,
  AdminActivityQuery,
  AdminRate,
  AdminRatesFilter,
  AdminSettingsPatch,
  DeskBoard,
  PublicationInput,
  PublicationResult,
  PublicationRowIssue,
  RateCorrectionInput,
  AdminSession,
  AdminUser,
  ApiEnvelope,
  App,
  ChangePasswordInput,
  FeatureInput,
  HeldPayment,
  JobRun,
  RateStatus,
  Market,
  PagedResponse,
  Plan,
  PlanInput,
  Rate,
  RateInput,
  SignInLockInput,
  Subscriber,
  Subscription,
  Transaction,
} from '@afrofx/shared';
import { api, type ApiExtraOptions } from '../../api/base-api';

const nextPage = <T>(lastPage: PagedResponse<T>) => lastPage.pagination.next ?? undefined;
const pageOptions = { initialPageParam: 1, getNextPageParam: nextPage };

// SPEC §8: the Emails screen shows its errors with the success style.
const emailsScreen: ApiExtraOptions = { errorToast: 'success' };

export type AccountAction =
  'enable_account' | 'disable_account' | 'enable_premium_customer' | 'enable_normal_customer';

const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    authenticate: build.mutation<ApiEnvelope<AdminSession>, { email: string; password: string }>({
      query: (body) => ({ url: 'admin/authenticate', method: 'POST', body }),
    }),
    adminSignout: build.mutation<ApiEnvelope<null>, void>({
      query: () => ({ url: 'admin/signout', method: 'POST' }),
      // Signing out goes ahead in this browser even when the server cannot be reached.
      extraOptions: { errorToast: false },
    }),
    changeAdminPassword: build.mutation<ApiEnvelope<{ token: string }>, ChangePasswordInput>({
      query: (body) => ({ url: 'admin/change_password', method: 'POST', body }),
    }),
    fetchAllRates: build.infiniteQuery<PagedResponse<AdminRate>, AdminRatesFilter, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ queryArg, pageParam }) =>
        `admin/fetch_all_rates?${new URLSearchParams({ ...queryArg, page: String(pageParam) })}`,
      providesTags: [{ type: 'Rate', id: 'LIST' }],
    }),
    // What the site shows for a market: the rate form compares a new price with it (the fat-finger guard).
    fetchLatestRates: build.query<Rate[], Market>({
      query: (market) => `user/fetch_rates/${market}`,
      transformResponse: (response: ApiEnvelope<Rate[]>) => response.data,
      providesTags: (_result, _error, market) => [{ type: 'Rate', id: market }],
    }),
    createRate: build.mutation<ApiEnvelope<Rate>, RateInput>({
      query: (body) => ({ url: 'admin/create_rate', method: 'POST', body }),
      invalidatesTags: ['Rate'],
    }),
    editRate: build.mutation<ApiEnvelope<Rate>, { id: string; body: RateCorrectionInput }>({
      query: ({ id, body }) => ({ url: `admin/edit_rate/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['Rate'],
    }),
    deleteRate: build.mutation<ApiEnvelope<unknown>, { id: string; reason: string }>({
      query: ({ id, reason }) => ({
        url: `admin/delete_rate/${encodeURIComponent(id)}?${new URLSearchParams({ reason })}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['Rate'],
    }),
    exportRates: build.mutation<ApiEnvelope<unknown>, { email: string }>({
      query: (body) => ({ url: 'admin/export_rate_to_csv', method: 'POST', body }),
    }),
    fetchMailingList: build.infiniteQuery<PagedResponse<Subscriber>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `admin/fetch_mailing_list?mail_type=mailing_list&page=${pageParam}`,
      providesTags: [{ type: 'Subscriber', id: 'LIST' }],
    }),
    removeEmail: build.mutation<ApiEnvelope<unknown>, string>({
      query: (id) => ({ url: `admin/remove_email/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Subscriber'],
      extraOptions: emailsScreen,
    }),
    sendRatesMail: build.mutation<ApiEnvelope<unknown>, void>({
      query: () => ({ url: 'admin/send_rate_to_mail', method: 'POST' }),
      extraOptions: emailsScreen,
    }),
    sendTweet: build.mutation<ApiEnvelope<unknown>, void>({
      query: () => ({ url: 'admin/send_tweet_rate', method: 'POST' }),
      extraOptions: emailsScreen,
    }),
    fetchJobRuns: build.query<PagedResponse<JobRun>, void>({
      query: () => 'admin/job_runs',
    }),
    fetchRateStatus: build.query<ApiEnvelope<RateStatus>, void>({
      query: () => 'admin/rate_status',
      // A publication changes a market's status: it is read again with the rates.
      providesTags: [{ type: 'Rate', id: 'STATUS' }],
    }),
    fetchAdminPlans: build.infiniteQuery<PagedResponse<Plan>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `admin/plans?page=${pageParam}`,
      providesTags: [{ type: 'Plan', id: 'LIST' }],
    }),
    createPlan: build.mutation<ApiEnvelope<Plan>, PlanInput>({
      query: (body) => ({ url: 'admin/create_plan', method: 'POST', body }),
      invalidatesTags: ['Plan'],
    }),
    editPlan: build.mutation<ApiEnvelope<Plan>, { id: string; body: PlanInput }>({
      query: ({ id, body }) => ({ url: `admin/edit_plan/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['Plan'],
    }),
    addFeatureToPlan: build.mutation<ApiEnvelope<Plan>, { planId: string } & FeatureInput>({
      query: ({ planId, title }) => ({
        url: `admin/add_features_to_plan/${encodeURIComponent(planId)}`,
        method: 'PUT',
        body: { title },
      }),
      invalidatesTags: ['Plan'],
    }),
    removeFeatureFromPlan: build.mutation<ApiEnvelope<Plan>, { planId: string; featureId: string }>({
      query: ({ planId, featureId }) => ({
        url: `admin/${encodeURIComponent(featureId)}/remove_feature_from_plan/${encodeURIComponent(planId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['Plan'],
    }),
    deletePlan: build.mutation<ApiEnvelope<null>, string>({
      query: (id) => ({ url: `admin/delete_plan/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Plan'],
    }),
    fetchAllTransactions: build.infiniteQuery<PagedResponse<Transaction>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `admin/fetch_transactions?page=${pageParam}`,
    }),
    fetchHeldPayments: build.query<HeldPayment[], void>({
      query: () => 'admin/held_payments',
      transformResponse: (response: ApiEnvelope<HeldPayment[]>) => response.data,
    }),
    fetchUsers: build.infiniteQuery<PagedResponse<AdminUser>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `admin/fetch_users?page=${pageParam}`,
    }),
    createUser: build.mutation<ApiEnvelope<AdminUser>, { email: string; password: string }>({
      query: (body) => ({ url: 'admin/create_user', method: 'POST', body }),
    }),
    liftSignInLock: build.mutation<ApiEnvelope<null>, SignInLockInput>({
      query: (body) => ({ url: 'admin/lift_sign_in_lock', method: 'POST', body }),
    }),
    // SPEC §7: one call per status and customer action, named as the server names them.
    changeAccount: build.mutation<ApiEnvelope<null>, { id: string; action: AccountAction }>({
      query: ({ id, action }) => ({ url: `admin/${action}/${encodeURIComponent(id)}`, method: 'PUT' }),
    }),
    fetchApiWaitList: build.infiniteQuery<PagedResponse<Subscriber>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `admin/fetch_mailing_list?mail_type=api_wait_list_user&page=${pageParam}`,
    }),
    fetchAllApps: build.infiniteQuery<PagedResponse<App>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `admin/fetch_apps?page=${pageParam}`,
    }),
    fetchDesk: build.query<DeskBoard, void>({
      query: () => 'admin/desk',
      transformResponse: (response: ApiEnvelope<DeskBoard>) => response.data,
      providesTags: [{ type: 'Rate', id: 'DESK' }],
    }),
    // A refused publication answers 400 with the issues of each row: the desk shows them in place, not as a toast.
    publishRates: build.mutation<
      ApiEnvelope<PublicationResult> | { message: string; issues: PublicationRowIssue[] },
      PublicationInput
    >({
      query: (body) => ({
        url: 'admin/rate_publications',
        method: 'POST',
        body,
        validateStatus: (response) => response.status < 300 || response.status === 400,
      }),
      invalidatesTags: ['Rate'],
    }),
    updateDeskSettings: build.mutation<ApiEnvelope<unknown>, AdminSettingsPatch>({
      query: (body) => ({ url: 'admin/settings', method: 'PUT', body }),
      invalidatesTags: [{ type: 'Rate', id: 'DESK' }],
    }),
    fetchActivity: build.query<PagedResponse<AdminActivity>, AdminActivityQuery>({
      query: (filter) =>
        `admin/activity?${new URLSearchParams(
          Object.entries(filter).flatMap(([key, value]) =>
            value === undefined || value === '' ? [] : [[key, String(value)]],
          ),
        )}`,
    }),
    fetchAllSubscriptions: build.infiniteQuery<PagedResponse<Subscription>, void, number>({
      infiniteQueryOptions: pageOptions,
      query: ({ pageParam }) => `admin/fetch_subscriptions?page=${pageParam}`,
    }),
  }),
});

export const {
  useAuthenticateMutation,
  useAdminSignoutMutation,
  useChangeAdminPasswordMutation,
  useFetchAllRatesInfiniteQuery,
  useFetchLatestRatesQuery,
  useCreateRateMutation,
  useEditRateMutation,
  useDeleteRateMutation,
  useExportRatesMutation,
  useFetchMailingListInfiniteQuery,
  useRemoveEmailMutation,
  useSendRatesMailMutation,
  useSendTweetMutation,
  useFetchJobRunsQuery,
  useFetchRateStatusQuery,
  useFetchAdminPlansInfiniteQuery,
  useCreatePlanMutation,
  useEditPlanMutation,
  useAddFeatureToPlanMutation,
  useRemoveFeatureFromPlanMutation,
  useDeletePlanMutation,
  useFetchAllTransactionsInfiniteQuery,
  useFetchHeldPaymentsQuery,
  useFetchAllSubscriptionsInfiniteQuery,
  useFetchUsersInfiniteQuery,
  useCreateUserMutation,
  useChangeAccountMutation,
  useLiftSignInLockMutation,
  useFetchApiWaitListInfiniteQuery,
  useFetchAllAppsInfiniteQuery,
  useFetchDeskQuery,
  usePublishRatesMutation,
  useFetchActivityQuery,
  useUpdateDeskSettingsMutation,
} = adminApi;
