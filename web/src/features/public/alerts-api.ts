import type { AlertManagement, ApiEnvelope, DailyMailPreferences, RateAlertInput } from '@afrofx/shared';
import { api } from '../../api/base-api';

const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    createAlert: build.mutation<ApiEnvelope<unknown>, RateAlertInput>({
      query: (body) => ({ url: 'user/alerts', method: 'POST', body }),
    }),
    confirmAlert: build.mutation<ApiEnvelope<{ manageToken: string }>, string>({
      query: (token) => ({ url: `user/alerts/confirm/${encodeURIComponent(token)}`, method: 'POST' }),
      // The confirmation page shows the server message itself.
      extraOptions: { errorToast: false },
    }),
    fetchAlerts: build.query<AlertManagement, string>({
      query: (token) => `user/alerts/${encodeURIComponent(token)}`,
      transformResponse: (response: ApiEnvelope<AlertManagement>) => response.data,
      providesTags: [{ type: 'Alert', id: 'LIST' }],
    }),
    pauseAlert: build.mutation<ApiEnvelope<unknown>, { token: string; id: string; paused: boolean }>({
      query: ({ token, id, paused }) => ({
        url: `user/alerts/${encodeURIComponent(token)}/${id}`,
        method: 'PUT',
        body: { paused },
      }),
      invalidatesTags: [{ type: 'Alert', id: 'LIST' }],
    }),
    removeAlert: build.mutation<ApiEnvelope<unknown>, { token: string; id: string }>({
      query: ({ token, id }) => ({ url: `user/alerts/${encodeURIComponent(token)}/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Alert', id: 'LIST' }],
    }),
    saveDailyPreferences: build.mutation<ApiEnvelope<unknown>, { token: string } & DailyMailPreferences>({
      query: ({ token, ...body }) => ({
        url: `user/alerts/${encodeURIComponent(token)}/daily`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: [{ type: 'Alert', id: 'LIST' }],
    }),
  }),
});

export const {
  useCreateAlertMutation,
  useConfirmAlertMutation,
  useFetchAlertsQuery,
  usePauseAlertMutation,
  useRemoveAlertMutation,
  useSaveDailyPreferencesMutation,
} = alertsApi;
