import { Type } from '../../core/schema.js';
import { Literals } from '../common.schemas.js';
import { OnboardingSchema } from '../onboardings/onboardings.schemas.js';
import { SANDBOX_STEPS } from './sandbox.service.js';

export const SandboxAdvanceSchema = Type.Object(
  { step: Literals(SANDBOX_STEPS), onboarding: OnboardingSchema },
  { title: 'SandboxAdvance' },
);
