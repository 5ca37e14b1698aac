// Two roles, two token kinds (DESIGN §4). Tokens carry the account's token version so that disabling an
// account or resetting its password ends every session it had.
//
// The browser holds its session in an httpOnly cookie (script cannot read it, so an injected script cannot
// take it away, and every tab of the site shares it); API clients and the tests send the same token as a
// Bearer header, which wins when both are present. Cross-site request forgery: the cookie is SameSite=Strict,
// so another site's page never sends it, and a mutating call authenticated by the cookie must also carry the
// X-Requested-With header, which a cross-origin page can only send after a CORS preflight the console's routes
// never grant. Both together cover a browser that ignores SameSite.
import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ID_PATTERN } from '@afrofx/shared';
import { forbidden, unauthorized } from '../errors';

export type Role = 'admin' | 'developer';

interface TokenClaims {
  sub: string;
  role: Role;
  ver: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    requireAdmin(request: FastifyRequest): Promise<void>;
    requireDeveloper(request: FastifyRequest): Promise<void>;
    issueToken(claims: TokenClaims): string;
    /** Issues a token and puts it in the role's session cookie; answers the token for API clients. */
    startSession(reply: FastifyReply, claims: TokenClaims): string;
    endSession(reply: FastifyReply, role: Role): void;
  }
  interface FastifyRequest {
    admin?: { id: string };
    developer?: { id: string };
  }
}

const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
const ACCOUNT_ID = new RegExp(ID_PATTERN);
const SESSION_HOURS = 12;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-requested-with';

/** One cookie per role, scoped to its routes, so a developer and an admin session can live side by side. */
export const SESSION_COOKIES: Record<Role, { name: string; path: string }> = {
  developer: { name: 'afrofx_session', path: '/v1/' },
  admin: { name: 'afrofx_admin_session', path: '/v1/admin/' },
};

/** What the session checks ask of the accounts: whether a token's version is still the account's. */
export interface SessionChecks {
  adminSessionIsValid(id: string, tokenVersion: number): Promise<boolean>;
  developerSessionIsValid(id: string, tokenVersion: number): Promise<boolean>;
}

export interface AuthOptions {
  secret: string;
  sessions: SessionChecks;
  /** Secure cookies when the site is served over https (PUBLIC_URL); plain http in development would drop them. */
  secureCookies: boolean;
}

export const authPlugin = fp<AuthOptions>(
  async (app: FastifyInstance, { secret, sessions, secureCookies }) => {
    // Only the session checks read cookies: parsed there, not in a hook on every route (the paid API has none).
    await app.register(fastifyCookie, { hook: false });
    await app.register(fastifyJwt, {
      secret,
      // DESIGN §7: pin the algorithm so alg:none or a key-confusion token is refused.
      sign: { algorithm: 'HS256', expiresIn: `${SESSION_HOURS}h` },
      verify: { algorithms: ['HS256'] },
    });

    const verify = async (request: FastifyRequest, role: Role): Promise<TokenClaims> => {
      request.cookies ??= app.parseCookie(request.headers.cookie ?? '');
      const cookie = request.cookies[SESSION_COOKIES[role].name];
      if (!request.headers.authorization && !cookie) throw unauthorized();
      if (
        !request.headers.authorization &&
        !SAFE_METHODS.has(request.method) &&
        !request.headers[CSRF_HEADER]
      )
        throw forbidden(`A change made with the session cookie needs the ${CSRF_HEADER} header.`);
      let claims: TokenClaims;
      try {
        claims = request.headers.authorization
          ? await request.jwtVerify<TokenClaims>()
          : app.jwt.verify<TokenClaims>(cookie!);
      } catch {
        throw unauthorized(SESSION_EXPIRED);
      }
      // A well-signed token with an odd subject (a leaked secret, an older format) must not reach a uuid query.
      if (typeof claims.sub !== 'string' || !ACCOUNT_ID.test(claims.sub) || !Number.isInteger(claims.ver))
        throw unauthorized(SESSION_EXPIRED);
      if (claims.role !== role) throw forbidden();
      return claims;
    };

    app.decorate('issueToken', (claims: TokenClaims) => app.jwt.sign(claims));
    app.decorate('startSession', (reply: FastifyReply, claims: TokenClaims) => {
      const token = app.jwt.sign(claims);
      void reply.setCookie(SESSION_COOKIES[claims.role].name, token, {
        path: SESSION_COOKIES[claims.role].path,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies,
        maxAge: SESSION_HOURS * 60 * 60,
      });
      return token;
    });
    app.decorate('endSession', (reply: FastifyReply, role: Role) => {
      void reply.clearCookie(SESSION_COOKIES[role].name, {
        path: SESSION_COOKIES[role].path,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies,
      });
    });
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      const claims = await verify(request, 'admin');
      if (!(await sessions.adminSessionIsValid(claims.sub, claims.ver))) throw unauthorized(SESSION_EXPIRED);
      request.admin = { id: claims.sub };
    });
    app.decorate('requireDeveloper', async (request: FastifyRequest) => {
      const claims = await verify(request, 'developer');
      if (!(await sessions.developerSessionIsValid(claims.sub, claims.ver)))
        throw unauthorized(SESSION_EXPIRED);
      request.developer = { id: claims.sub };
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);
