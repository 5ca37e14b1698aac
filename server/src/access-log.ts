// Fastify's access lines, per route. Fastify writes "incoming request" and "request completed" for every request
// and gives each request a child logger. On the paid API the request log is the record of every call (request_logs),
// so those two lines per call only repeat it at the cost of the calls themselves. On routes whose config says
// `accessLog: 'aggregated'`, a call its owner recorded (`request.accessRecorded`, set by the metering plugin, which
// writes one line a minute with the counts per status) writes no line; any other call (an unknown key) one line
// with its request and answer; an error its error line as everywhere.
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The call is on record elsewhere (the request log): no access line of its own on an aggregated route. */
    accessRecorded?: boolean;
  }
  interface FastifyContextConfig {
    /** 'aggregated': no access line per request; the route's owner logs counts instead. */
    accessLog?: 'aggregated';
  }
}

const aggregated = (request: FastifyRequest) => request.routeOptions.config.accessLog === 'aggregated';

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply) {
    if (!aggregated(request)) super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error || !aggregated(request)) super.requestCompleted(error, request, reply);
    else if (!request.accessRecorded && !this.isLogDisabled(request))
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

type Bindings = Record<string, unknown>;
type LogMethod = (...args: unknown[]) => void;

/**
 * A request's logger that becomes a real child of `parent` (with the request id) the first time it logs: a call
 * that logs nothing costs one small object instead of a pino child.
 */
class LazyChildLogger {
  private real: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: object,
  ) {}
  private get logger(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }
  get level() {
    return this.real?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  fatal(...args: unknown[]) {
    (this.logger.fatal as LogMethod)(...args);
  }
  error(...args: unknown[]) {
    (this.logger.error as LogMethod)(...args);
  }
  warn(...args: unknown[]) {
    (this.logger.warn as LogMethod)(...args);
  }
  info(...args: unknown[]) {
    (this.logger.info as LogMethod)(...args);
  }
  debug(...args: unknown[]) {
    (this.logger.debug as LogMethod)(...args);
  }
  trace(...args: unknown[]) {
    (this.logger.trace as LogMethod)(...args);
  }
  silent() {}
  child(bindings: Bindings, options?: object) {
    return this.logger.child(bindings, options);
  }
}

/** For setChildLoggerFactory: each request's logger is made on first use. */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: object) {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
