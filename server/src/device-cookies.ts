// OWASP's device cookies against online guessing: a browser that signed in to a login gets a signed cookie naming
// it as a known device of that login. Failures from unknown devices slow down only unknown devices
// (modules/accounts/sign-in-slowdown.ts counts them on the login), so a stranger guessing from anywhere never locks the owner out of
// a browser they have used; a known device's own failures slow down that device alone.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Role = 'developer' | 'admin';

/** Sent only to the sign-in call of its console. */
const COOKIES: Record<Role, { name: string; path: string }> = {
  developer: { name: 'afx_device', path: '/v1/account/signin' },
  admin: { name: 'afx_admin_device', path: '/v1/admin/authenticate' },
};
const LIFETIME_SECONDS = 365 * 24 * 60 * 60;
const DEVICE_ID = /^[0-9a-f]{32}$/;

export function deviceCookies(app: FastifyInstance, { secret, secure }: { secret: string; secure: boolean }) {
  const key = createHmac('sha256', secret).update('afrofx known-device cookie').digest();
  const signature = (role: Role, email: string, device: string) =>
    createHmac('sha256', key).update(`${role}\n${email.trim().toLowerCase()}\n${device}`).digest('base64url');

  return {
    /** The device id of a browser that signed in to this login before, or null: an unknown device. */
    known(request: FastifyRequest, role: Role, email: string): string | null {
      const raw = app.parseCookie(request.headers.cookie ?? '')[COOKIES[role].name];
      const [device, given] = raw?.split('.') ?? [];
      if (!device || !given || !DEVICE_ID.test(device)) return null;
      const expected = Buffer.from(signature(role, email, device));
      const presented = Buffer.from(given);
      return expected.length === presented.length && timingSafeEqual(expected, presented) ? device : null;
    },

    /** After a successful sign-in: this browser is a known device of the login (a fresh id each time). */
    remember(reply: FastifyReply, role: Role, email: string): void {
      const device = randomBytes(16).toString('hex');
      void reply.setCookie(COOKIES[role].name, `${device}.${signature(role, email, device)}`, {
        path: COOKIES[role].path,
        httpOnly: true,
        sameSite: 'strict',
        secure,
        maxAge: LIFETIME_SECONDS,
      });
    },
  };
}

export type DeviceCookies = ReturnType<typeof deviceCookies>;
