import { ERROR_CODES } from '../core/errors.js';
import type { ControlMethods } from '../control/control.client.js';

/**
 * The MCP resources: documents an agent reads rather than calls. The OpenAPI document of the
 * emulator it talks to (given by the transport: built here in process, fetched from a running
 * one), the onboarding state machine and the sandbox catalogue (their control methods) and the
 * error catalogue (the code's one table of codes, statuses and types).
 */
export interface ResourceSources {
  methods: ControlMethods;
  openapi(): Promise<unknown>;
}

interface McpResource {
  uri: string;
  name: string;
  description: string;
  read(sources: ResourceSources): Promise<unknown>;
}

export const MCP_RESOURCES: readonly McpResource[] = [
  {
    uri: 'emulator://openapi.json',
    name: 'OpenAPI document',
    description: 'Every /v1 operation and control action of the emulator, with its schemas (OpenAPI 3.1).',
    read: (s) => s.openapi(),
  },
  {
    uri: 'emulator://state-machine.json',
    name: 'Onboarding state machine',
    description: 'The life cycle of an onboarding: statuses, triggers, the events each emits and the 409 code when not allowed, with a Mermaid diagram.',
    read: (s) => s.methods.stateMachine(),
  },
  {
    uri: 'emulator://catalog.json',
    name: 'Sandbox catalogue',
    description: 'Every magic input (e-mail addresses, test identity numbers, values a check refuses, payroll failures) and every control action and transition, with its outcome and an example.',
    read: (s) => s.methods.catalog(),
  },
  {
    uri: 'emulator://errors.json',
    name: 'Error catalogue',
    description: 'Every error code the emulator answers with, its HTTP status and error type (the envelope: {error: {type, code, message, param?, details?}}).',
    read: () => Promise.resolve({ data: Object.entries(ERROR_CODES).map(([code, { status, type }]) => ({ code, status, type })) }),
  },
];
