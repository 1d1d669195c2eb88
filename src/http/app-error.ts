import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { statusOf, type AnswerCode, type ErrorCode } from './error-codes.ts';
import type { RefusalStatus } from '../serving/node-server.ts';

export interface FieldError {
  field: string;
  message: string;
}

/** The error envelope every failure answers with. */
export interface ErrorBody {
  success: false;
  error: string;
  code: ErrorCode;
  details?: FieldError[];
}

/**
 * The one error type handlers throw: its code (error-codes.ts, which gives its status) and its text.
 * The central handler (error-handler.ts) turns it into the envelope; anything else thrown becomes a
 * logged 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: AnswerCode;
  readonly status: ContentfulStatusCode;
  readonly details?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(code: AnswerCode, message: string, options: { details?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.status = statusOf(code);
    this.details = options.details;
    this.headers = options.headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { success: false, error: this.message, code: this.code };
    return this.details ? { ...body, details: this.details } : body;
  }
}

/** The envelope of an error that is not an AppError (one Node or the adapter found before the app). */
export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { success: false, error: message, code };
}

const REFUSALS: Record<RefusalStatus, [code: ErrorCode, message: string]> = {
  400: ['bad_request', 'Bad request'],
  408: ['request_timeout', 'Request timeout'],
  413: ['payload_too_large', 'Payload too large'],
  431: ['headers_too_large', 'Request header fields too large'],
};

/** The envelope of what Node's server refuses before the app (src/serving/node-server.ts), as JSON. */
export function refusalBody(status: RefusalStatus): string {
  const [code, message] = REFUSALS[status];
  return JSON.stringify(errorBody(code, message));
}
