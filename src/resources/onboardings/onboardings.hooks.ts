import type { Workspace } from '../../core/workspace.js';
import type { OnboardingRecord } from './onboardings.model.js';

/** What the script driving an onboarding (a scenario rule or a magic address) says about its payroll. */
export type ScriptedPayroll = {
  connector?: string;
  /** Absent when the rule names no outcome: the organization's switch decides then. */
  outcome?: 'success' | 'failure';
  error_code: string;
};

// The hooks onboardings call, declared here by their caller so the core names no onboarding
// and onboardings name no scenario: the composition root wires what answers them.
declare module '../../core/workspace.js' {
  interface WorkspaceHooks {
    /** After every stored transition of an onboarding (the scenario autopilot plans its next step). */
    afterTransition?: (ws: Workspace, onboarding: OnboardingRecord) => void;
    /** The scripted payroll of an onboarding, null when nothing scripts it (the scenarios answer). */
    scriptedPayroll?: (ws: Workspace, onboarding: OnboardingRecord) => ScriptedPayroll | null;
  }
}

/** The scripted payroll of an onboarding, as the workspace's hook answers; null without one. */
export function scriptedPayroll(ws: Workspace, r: OnboardingRecord): ScriptedPayroll | null {
  return ws.hooks.scriptedPayroll?.(ws, r) ?? null;
}
