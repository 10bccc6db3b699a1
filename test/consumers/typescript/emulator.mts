// Compiled, not run: the package's public types in a strict project made by `tsc --init`, with
// the library check on, so every type file the package ships is read (and must need nothing the
// project lacks: no Express types, no test runner).
import {
  ApiError, createEmulator, verifySignature,
  type ControlClient, type InProcessEmulator, type Onboarding, type OpenApproval, type ScenarioReport, type WebhookEndpoint,
} from 'onboarding-emulator';
import { OnboardingEmulatorContainer } from 'onboarding-emulator/testcontainers';

export async function journey(): Promise<string> {
  const em: InProcessEmulator = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
  const { url } = await em.start(0);
  const res = await fetch(`${url}/v1/onboardings/onb_demo_jansen`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
  const onboarding = (await res.json()) as Onboarding;
  const control: ControlClient = em;
  await control.clock.advance('90m');
  const fault = await control.faults.add({ kind: 'error', path: '/v1/onboardings' });
  const report: ScenarioReport = await control.scenario.report(true);
  const approvals: OpenApproval[] = [];
  const webhooks: WebhookEndpoint[] = [];
  const valid: boolean = verifySignature('{}', 't=0,v1=00', 'whsec_x', { toleranceSeconds: 300 });
  await em.close();
  if (!(new ApiError('internal_error', 'x') instanceof Error)) throw new Error('ApiError is no Error');
  return [onboarding.id, fault.id, report.final, approvals.length, webhooks.length, valid, typeof OnboardingEmulatorContainer].join(' ');
}
