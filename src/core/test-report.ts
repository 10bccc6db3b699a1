/**
 * A report's checks as the test report formats take them (JUnit XML in junit.ts, CTRF in
 * ctrf.ts): made once by the receiver check or the scenario report, written in either format.
 */
export interface TestCase {
  name: string;
  /** The group it belongs to (the suite's name unless told otherwise). */
  classname?: string;
  /** pending: not decided yet (JUnit has no such state and writes it skipped). */
  outcome: 'passed' | 'failed' | 'skipped' | 'pending';
  /** Why it failed, was skipped or is pending; shown as the failure's message. */
  message?: string;
  /** Longer text for the failure's body (what was sent, what came back). */
  detail?: string;
  /** Seconds it took, when measured. */
  time?: number;
}

export interface TestSuite {
  name: string;
  /** An ISO instant the run started. */
  timestamp?: string;
  cases: TestCase[];
}
