import type { ScenarioDocument } from './scenario.schemas.js';
import type { PartShape } from '../core/workspace.js';

/** A scenario as loaded into a workspace: the document and where it came from. */
export interface LoadedScenario {
  document: ScenarioDocument;
  /** The file name, "api" (PUT /_emulator/scenario) or "workspace" (given at creation). */
  source: string;
  loaded_at: string;
  /**
   * The store's sequence when it was loaded (or its workspace reset): its expectations look at
   * onboardings and events made from then on, not those already there (the fixtures'). Absent
   * in snapshots taken before it was kept: then those created at or after loaded_at.
   */
  from_seq?: number;
}

/**
 * How far the autopilot took one onboarding. Plain JSON, kept on the workspace, so a snapshot
 * holds it beside the timer that plays the next step.
 */
export interface AutopilotProgress {
  /** "rules[2]" of the scenario, or "magic:payroll-fail" for a magic e-mail address. */
  rule: string;
  /** The step its pending timer will play, and that timer's sequence number. */
  step: string | null;
  timer: number | null;
  due_at: string | null;
  /** Returns for correction made so far, against the rule's `corrections.times`. */
  corrections: number;
  terms_changed: boolean;
}

declare module '../core/workspace.js' {
  interface WorkspaceParts {
    /**
     * The loaded scenario (docs/scenarios.md); null: only magic e-mail addresses move anything.
     * Its part and the autopilot's: scenario.parts.ts.
     */
    scenario: PartShape<'scenario', LoadedScenario | null>;
    /** Per onboarding id: the autopilot's progress on it. */
    autopilot: PartShape<'autopilot', Map<string, AutopilotProgress>, Record<string, AutopilotProgress>>;
  }
}
