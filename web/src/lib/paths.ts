/**
 * The consoles' addresses, typed and in one place: layouts, links and redirects read them here instead
 * of spelling route strings. The route tables in web/src/app declare the same segments below /developer and /admin;
 * app/paths.test.tsx checks that every address here opens a page of its own.
 */
export const paths = {
  developer: {
    signin: '/developer/signin',
    signup: '/developer/signup',
    requestPasswordReset: '/developer/request_password_reset',
    home: '/developer/home',
    request: '/developer/request',
    plans: '/developer/plans',
    apiKeys: '/developer/api',
    webhooks: '/developer/webhooks',
    receipts: '/developer/receipts',
    apps: '/developer/apps',
    changePassword: '/developer/change_password',
  },
  admin: {
    login: '/admin/login',
    desk: '/admin/desk',
    activity: '/admin/activity',
    emails: '/admin/emails',
    users: '/admin/users',
    rates: '/admin/rates',
    apiWaitList: '/admin/api_wait_list',
    plans: '/admin/plans',
    apps: '/admin/apps',
    transactions: '/admin/transactions',
    subscriptions: '/admin/subscriptions',
    changePassword: '/admin/change_password',
  },
} as const;
