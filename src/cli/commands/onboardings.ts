import type { Command } from 'commander';
import type { Static } from '../../core/schema.js';
import type { SandboxAdvanceSchema } from '../../resources/sandbox/sandbox.schemas.js';
import { action, clientCommand, commandGroup, optionsOf, printFields, printJson } from '../client.js';
import { request } from '../../client/http.js';

/** The sandbox is the public API, not the control interface: a plain request, typed by the route's schema. */
type SandboxAdvance = Static<typeof SandboxAdvanceSchema>;

export function registerOnboardings(program: Command): void {
  const onboardings = commandGroup(program, 'onboardings', 'Act on onboardings');

  clientCommand(onboardings, 'advance', 'Play the next step of a test onboarding (POST /v1/sandbox/onboardings/{id}/advance; needs a test key with onboardings:write)')
    .argument('<id>', 'the onboarding id, e.g. onb_demo_jansen')
    .addHelpText('after', '\nExample:\n  onboarding-emulator onboardings advance onb_demo_jansen --key hrs_test_acme_owner')
    .action(action(async (id: string, _opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const result = await request<SandboxAdvance>(o, 'POST', `/v1/sandbox/onboardings/${encodeURIComponent(id)}/advance`, {});
      if (o.json) printJson(result);
      else printFields([['onboarding', result.onboarding.id], ['step', result.step], ['status', result.onboarding.status]]);
    }));
}
