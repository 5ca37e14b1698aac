// Two roles, two token kinds (DESIGN §4). Tokens carry the account's token version so that disabling an
// account or resetting its password ends every session it had.
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ID_PATTERN } from '@afrofx/shared';
import { forbidden, unauthorized } from '../errors';
import type { Services } from '../services';

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
  }
  interface FastifyRequest {
    admin?: { id: string };
    developer?: { id: string };
  }
}

const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
const ACCOUNT_ID = new RegExp(ID_PATTERN);

export interface AuthOptions {
  secret: string;
  services: Services;
}

export const authPlugin = fp<AuthOptions>(
  async (app: FastifyInstance, { secret, services }) => {
    await app.register(fastifyJwt, {
      secret,
      // DESIGN §7: pin the algorithm so alg:none or a key-confusion token is refused.
      sign: { algorithm: 'HS256', expiresIn: '12h' },
      verify: { algorithms: ['HS256'] },
    });

    const verify = async (request: FastifyRequest, role: Role): Promise<TokenClaims> => {
      if (!request.headers.authorization) throw unauthorized();
      let claims: TokenClaims;
      try {
        claims = await request.jwtVerify<TokenClaims>();
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
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      const claims = await verify(request, 'admin');
      if (!(await services.adminUsers.sessionIsValid(claims.sub, claims.ver)))
        throw unauthorized(SESSION_EXPIRED);
      request.admin = { id: claims.sub };
    });
    app.decorate('requireDeveloper', async (request: FastifyRequest) => {
      const claims = await verify(request, 'developer');
      if (!(await services.accounts.developerSession(claims.sub, claims.ver)))
        throw unauthorized(SESSION_EXPIRED);
      request.developer = { id: claims.sub };
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);
