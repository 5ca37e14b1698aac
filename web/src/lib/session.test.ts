import {
  ADMIN_SESSION_KEY,
  DEVELOPER_SESSION_KEY,
  readAdminSession,
  saveAdminSession,
  saveDeveloperSession,
  signedInForUrl,
} from './session';

describe('browser session', () => {
  it("keeps the admin's display data under 'afrofx-admin' in localStorage, never a token", () => {
    expect(ADMIN_SESSION_KEY).toBe('afrofx-admin');
    expect(DEVELOPER_SESSION_KEY).toBe('afrofx');
    saveAdminSession({ userData: { email: 'admin@example.com' } });
    expect(JSON.parse(window.localStorage.getItem('afrofx-admin') ?? 'null')).toEqual({
      userData: { email: 'admin@example.com' },
    });
    expect(readAdminSession()?.userData.email).toBe('admin@example.com');
    expect(window.sessionStorage.length).toBe(0);
  });

  it('counts admin calls as signed in by the admin session and other calls by the developer one', () => {
    saveAdminSession({ userData: { email: 'admin@example.com' } });
    expect(signedInForUrl('admin/fetch_all_rates?page=1')).toBe(true);
    expect(signedInForUrl('account/fetch_plans?page=1')).toBe(false);
    saveDeveloperSession({ userData: { first_name: 'Ada', last_name: 'Okafor' } });
    expect(signedInForUrl('user/fetch_rates/bank')).toBe(true);
  });

  it('is signed out without a session, or with a damaged one', () => {
    expect(signedInForUrl('admin/authenticate')).toBe(false);
    window.localStorage.setItem('afrofx-admin', '{not json');
    expect(readAdminSession()).toBeNull();
  });
});
