import {
  ADMIN_SESSION_KEY,
  DEVELOPER_SESSION_KEY,
  readAdminSession,
  saveAdminSession,
  tokenForUrl,
} from './session';

describe('browser session', () => {
  it("keeps the admin session under 'afrofx-admin' and the developer one under 'afrofx'", () => {
    expect(ADMIN_SESSION_KEY).toBe('afrofx-admin');
    expect(DEVELOPER_SESSION_KEY).toBe('afrofx');
    saveAdminSession({ token: 't1', userData: { email: 'admin@example.com' } });
    expect(JSON.parse(window.sessionStorage.getItem('afrofx-admin') ?? 'null')).toEqual({
      token: 't1',
      userData: { email: 'admin@example.com' },
    });
    expect(readAdminSession()?.userData.email).toBe('admin@example.com');
  });

  it('gives admin calls the admin token and other calls the developer token', () => {
    saveAdminSession({ token: 'admin-token', userData: { email: 'admin@example.com' } });
    window.sessionStorage.setItem('afrofx', JSON.stringify({ token: 'dev-token', userData: {} }));
    expect(tokenForUrl('admin/fetch_all_rates?page=1')).toBe('admin-token');
    expect(tokenForUrl('account/fetch_plans?page=1')).toBe('dev-token');
    expect(tokenForUrl('user/fetch_rates/bank')).toBe('dev-token');
  });

  it('has no token without a session, or with a damaged one', () => {
    expect(tokenForUrl('admin/authenticate')).toBeNull();
    window.sessionStorage.setItem('afrofx-admin', '{not json');
    expect(readAdminSession()).toBeNull();
  });
});
