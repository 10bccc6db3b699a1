import { maskJson, maskSecrets } from './mask.js';

/**
 * The one error vocabulary: every code the emulator answers with, its HTTP status and the
 * spec's error type. docs/errors.md documents the same table for users.
 */
export type ErrorType =
  | 'invalid_request'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'api_error';

/** The spec's type-to-status mapping is "not shown"; this is ours (docs/decisions.md). */
export const STATUS_OF_TYPE: Record<ErrorType, readonly number[]> = {
  invalid_request: [400, 405, 408, 413, 415, 422, 431],
  authentication_error: [401],
  permission_error: [403],
  not_found: [404],
  conflict: [409],
  rate_limited: [429],
  api_error: [500, 502, 504],
};

const def = (status: number, type: ErrorType) => ({ status, type });

export const ERROR_CODES = {
  // Request shape (400, 408, 413, 415, 405, 431)
  request_malformed: def(400, 'invalid_request'),
  request_header_too_large: def(431, 'invalid_request'),
  request_timeout: def(408, 'invalid_request'),
  body_invalid_json: def(400, 'invalid_request'),
  body_invalid_yaml: def(400, 'invalid_request'),
  body_not_object: def(400, 'invalid_request'),
  body_too_deep: def(400, 'invalid_request'),
  body_too_large: def(413, 'invalid_request'),
  content_type_unsupported: def(415, 'invalid_request'),
  method_not_allowed: def(405, 'invalid_request'),
  service_version_unknown: def(400, 'invalid_request'),
  service_organization_required: def(400, 'invalid_request'),
  idempotency_key_invalid: def(400, 'invalid_request'),
  // Field and query rules (422)
  parameter_missing: def(422, 'invalid_request'),
  parameter_invalid: def(422, 'invalid_request'),
  parameter_unknown: def(422, 'invalid_request'),
  field_not_updatable: def(422, 'invalid_request'),
  metadata_personal_data: def(422, 'invalid_request'),
  return_url_not_allowed: def(422, 'invalid_request'),
  location_unknown: def(422, 'invalid_request'),
  template_unknown: def(422, 'invalid_request'),
  cursor_invalid: def(422, 'invalid_request'),
  fixtures_invalid: def(422, 'invalid_request'),
  scenario_invalid: def(422, 'invalid_request'),
  snapshot_invalid: def(422, 'invalid_request'),
  snapshot_version_unsupported: def(422, 'invalid_request'),
  organization_unknown: def(422, 'invalid_request'),
  user_unknown: def(422, 'invalid_request'),
  user_lacks_role: def(422, 'invalid_request'),
  // Authentication (401)
  api_key_missing: def(401, 'authentication_error'),
  api_key_invalid: def(401, 'authentication_error'),
  // Permission (403)
  scope_missing: def(403, 'permission_error'),
  scope_not_granted: def(403, 'permission_error'),
  organization_forbidden: def(403, 'permission_error'),
  partner_not_admitted: def(403, 'permission_error'),
  subscription_required: def(403, 'permission_error'),
  api_approvals_disabled: def(403, 'permission_error'),
  role_not_held: def(403, 'permission_error'),
  sandbox_test_keys_only: def(403, 'permission_error'),
  host_not_allowed: def(403, 'permission_error'),
  cross_origin_refused: def(403, 'permission_error'),
  document_not_downloadable: def(403, 'permission_error'),
  relay_token_invalid: def(403, 'permission_error'),
  // Not found (404)
  route_not_found: def(404, 'not_found'),
  resource_not_found: def(404, 'not_found'),
  workspace_not_found: def(404, 'not_found'),
  // Conflict (409)
  idempotency_in_progress: def(409, 'conflict'),
  idempotency_key_reused: def(409, 'conflict'),
  onboarding_cancelled: def(409, 'conflict'),
  onboarding_completed: def(409, 'conflict'),
  hosted_link_unavailable: def(409, 'conflict'),
  invalid_transition: def(409, 'conflict'),
  employee_not_pending: def(409, 'conflict'),
  not_in_review: def(409, 'conflict'),
  terms_locked: def(409, 'conflict'),
  contract_not_ready: def(409, 'conflict'),
  not_awaiting_employee_signature: def(409, 'conflict'),
  not_awaiting_employer_signature: def(409, 'conflict'),
  not_processing: def(409, 'conflict'),
  not_action_required: def(409, 'conflict'),
  payroll_manual_entry: def(409, 'conflict'),
  workspace_protected: def(409, 'conflict'),
  snapshot_key_conflict: def(409, 'conflict'),
  wait_timeout: def(409, 'conflict'),
  wait_unreachable: def(409, 'conflict'),
  events_invalid: def(422, 'invalid_request'),
  webhook_limit_reached: def(422, 'invalid_request'),
  workspace_limit_reached: def(422, 'invalid_request'),
  fault_limit_reached: def(422, 'invalid_request'),
  relay_limit_reached: def(422, 'invalid_request'),
  webhook_disabled: def(409, 'conflict'),
  webhook_address_missing: def(409, 'conflict'),
  delivery_in_progress: def(409, 'conflict'),
  clock_backwards: def(409, 'conflict'),
  hosted_link_revoked: def(409, 'conflict'),
  hosted_link_expired: def(409, 'conflict'),
  employee_not_started: def(409, 'conflict'),
  returned_to_manager: def(409, 'conflict'),
  not_returned_to_manager: def(409, 'conflict'),
  identity_already_verified: def(409, 'conflict'),
  identity_not_verified: def(409, 'conflict'),
  approval_already_given: def(409, 'conflict'),
  four_eyes_violation: def(409, 'conflict'),
  data_version_mismatch: def(409, 'conflict'),
  sandbox_finished: def(409, 'conflict'),
  approval_not_required: def(422, 'invalid_request'),
  one_time_code_invalid: def(422, 'invalid_request'),
  one_time_code_void: def(422, 'invalid_request'),
  onboarding_not_in_review: def(409, 'conflict'),
  // Rate limit and server (429, 500)
  rate_limited: def(429, 'rate_limited'),
  wait_limit_reached: def(429, 'rate_limited'),
  internal_error: def(500, 'api_error'),
  state_not_written: def(500, 'api_error'),
  // The parity proxy's own answers when its target fails it (502, 504)
  upstream_unreachable: def(502, 'api_error'),
  upstream_timeout: def(504, 'api_error'),
} as const satisfies Record<string, { status: number; type: ErrorType }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorDetail {
  path: string;
  message: string;
  /** How to put it right, where there is more to say than the message. */
  hint?: string;
}

/** An error's message and details never hold a secret whole, whatever they quote (src/core/mask.ts). */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly headers: Record<string, string>;
  /** Every mistake of a document (fixtures, scenarios), each with its path. */
  details?: ErrorDetail[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    headers: Record<string, string> = {},
  ) {
    super(maskSecrets(message));
    this.status = ERROR_CODES[code].status;
    this.type = ERROR_CODES[code].type;
    this.headers = headers;
  }
}

/** The error factory: `fail('resource_not_found', 'No onboarding onb_x.')`. */
export function fail(code: ErrorCode, message: string, param?: string): ApiError {
  return new ApiError(code, message, param);
}

export interface ErrorBody {
  error: { type: ErrorType; code: ErrorCode; message: string; param?: string; request_id: string; details?: ErrorDetail[] };
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      ...(err.param === undefined ? {} : { param: err.param }),
      request_id: requestId,
      ...(err.details ? { details: maskJson(err.details) } : {}),
    },
  };
}
