// Compiled, not run: a receiver's handler typed from the OpenAPI document's webhooks, as
// openapi-typescript generates them with its default settings (scripts/consumer-check.mjs writes
// openapi.mts from the package's buildOpenApi() before compiling).
import type { webhooks } from './openapi.mjs';
import { verifySignature } from 'onboarding-emulator';

type Message<T extends keyof webhooks> = NonNullable<webhooks[T]['post']['requestBody']>['content']['application/json'];

export function onCompleted(raw: string, signature: string, secret: string): string | null {
  if (!verifySignature(raw, signature, secret)) return null;
  const message = JSON.parse(raw) as Message<'onboarding.completed'>;
  const type: 'onboarding.completed' = message.type;
  const version: number | null = message.data.data_version;
  return `${type} ${message.id} ${message.data.onboarding_id} ${version ?? 0}`;
}
