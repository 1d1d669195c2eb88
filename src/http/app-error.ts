import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface FieldError {
  field: string;
  message: string;
}

/** The error envelope every failure answers with. */
export interface ErrorBody {
  success: false;
  error: string;
  details?: FieldError[];
}

/**
 * The one error type handlers throw. The central handler (error-handler.ts) turns it into the
 * envelope with its status; anything else thrown becomes a logged 500.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: ContentfulStatusCode;
  readonly details?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(status: ContentfulStatusCode, message: string, options: { details?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
  }

  toBody(): ErrorBody {
    return this.details ? { success: false, error: this.message, details: this.details } : { success: false, error: this.message };
  }
}
