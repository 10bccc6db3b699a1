/**
 * The order a run of the Postman collection follows through the /v1 operations, and the little
 * it must know beyond the OpenAPI document: which steps repeat until the onboarding reaches a
 * status (the sandbox plays one step per call), and which need a key whose user holds a role
 * (the identity check and an approval are a manager's). Everything a request is made of
 * (method, path, scope, body, documented status) comes from the document; a test holds this
 * list to the document's operations, so a new operation cannot be left out of the run.
 */
export interface JourneyStep {
  operationId: string;
  /** A second request for an operation already in the run, told apart by this name. */
  name?: string;
  /** The key's user must hold this role; the body's `role`, when it has one, is this role. */
  role?: 'manager' | 'payroll_reviewer' | 'owner';
  /** Sent again (at most 12 times in all) until the answer's onboarding has this status. */
  until?: string;
  /** Body properties sent as a collection variable, whose first value is the schema's example (a receiver's URL to set). */
  variables?: Readonly<Record<string, string>>;
}

export const JOURNEY: readonly JourneyStep[] = [
  { operationId: 'listOrganizations' },
  { operationId: 'getOrganization' },
  { operationId: 'createWebhook', variables: { url: 'webhookUrl' } },
  { operationId: 'listWebhooks' },
  { operationId: 'getWebhook' },
  { operationId: 'testWebhook' },
  { operationId: 'rotateWebhookSecret' },
  { operationId: 'listWebhookDeliveries' },
  { operationId: 'retryWebhookDelivery' },
  { operationId: 'listOnboardings' },
  { operationId: 'createOnboarding' },
  { operationId: 'getOnboarding' },
  { operationId: 'updateOnboarding' },
  { operationId: 'createHostedLink' },
  { operationId: 'advanceSandboxOnboarding', name: 'until in_review', until: 'in_review' },
  { operationId: 'createReviewSession' },
  { operationId: 'listApprovals' },
  { operationId: 'verifyIdentity', role: 'manager' },
  { operationId: 'approveOnboarding', role: 'manager' },
  { operationId: 'advanceSandboxOnboarding', name: 'until contract_ready', until: 'contract_ready' },
  { operationId: 'sendContract' },
  { operationId: 'listDocuments' },
  { operationId: 'downloadDocument' },
  { operationId: 'listEmployees' },
  { operationId: 'listEvents' },
  { operationId: 'listIntegrations' },
  { operationId: 'cancelOnboarding' },
  { operationId: 'deleteWebhook' },
];

/** How often a repeating step is sent at most, so a run always ends. */
export const MAX_REPEATS = 12;
