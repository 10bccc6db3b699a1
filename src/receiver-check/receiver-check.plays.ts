import { OLDER_NAMES } from '../resources/events/events.model.js';
import { wallClockSeconds } from '../core/clock.js';
import { STALE_SECONDS, UNKNOWN_EVENT_TYPE, type CheckGrade, type CheckName } from './receiver-check.checks.js';
import { randomId, type Outcome, type Run } from './receiver-check.run.js';
import { signatureHeader } from '../delivery/signature.js';
import type { TransportResult } from '../delivery/transport.js';

/** What each check of the table sends, and how its answers are graded. */

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;
const is4xx = (status: number | null) => status !== null && status >= 400 && status < 500;
const answered = (r: TransportResult) => (r.status === null ? r.error ?? 'no answer' : r.error ?? `HTTP ${r.status}`);

/** A message the receiver must acknowledge. */
function expectAccepted(r: TransportResult, what: string, timeoutMs: number): Outcome {
  if (r.ok) return { grade: 'passed', reason: `${what}: acknowledged with ${r.status}`, status: r.status, ms: r.durationMs };
  const why = r.status === null && r.error?.startsWith('timed out') ? `no answer within ${timeoutMs} ms` : answered(r);
  return { grade: 'failed', reason: `${what}: not acknowledged (${why}); the service would retry it`, status: r.status, ms: r.durationMs };
}

/** A message the receiver must refuse with 4xx; 2xx fails, every other refusal is a warning. */
function expectRefused(r: TransportResult, what: string): Outcome {
  if (is4xx(r.status)) return { grade: 'passed', reason: `${what}: refused with ${r.status}`, status: r.status, ms: r.durationMs };
  if (is2xx(r.status)) return { grade: 'failed', reason: `${what}: accepted with ${r.status}; it must be refused (4xx)`, status: r.status, ms: r.durationMs };
  return {
    grade: 'warning',
    reason: `${what}: not accepted, but answered ${answered(r)} instead of 4xx; the service would retry it for days`,
    status: r.status,
    ms: r.durationMs,
  };
}

/** The first that did not pass, else the last: what a check of several messages reports. */
function worst(outcomes: Outcome[]): Outcome {
  const rank: Record<CheckGrade, number> = { failed: 3, warning: 2, skipped: 1, passed: 0 };
  const chosen = outcomes.reduce((a, b) => (rank[b.grade] > rank[a.grade] ? b : a));
  const ms = Math.max(...outcomes.map((o) => o.ms ?? 0));
  return chosen.grade === 'passed' ? { ...outcomes[outcomes.length - 1]!, reason: outcomes.map((o) => o.reason).join('; '), ms } : { ...chosen, ms };
}

/** Changes a v1 value's last hex digit: the header stays well formed, the HMAC no longer matches. */
function altered(header: string): string {
  return header.replace(/(v1=[0-9a-f]*)([0-9a-f])(?=,|$)/, (_m, head: string, last: string) => `${head}${last === '0' ? '1' : '0'}`);
}

type Play = (run: Run, burst: number) => Promise<Outcome>;

export const PLAYS: Record<CheckName, Play> = {
  async valid_message(run) {
    const m = (run.first = run.message('onboarding.created', { onboardingId: run.firstOnboardingId }));
    const r = await run.send(m);
    if (r.ok) run.acknowledgedNew.push(run.firstOnboardingId);
    return expectAccepted(r, 'onboarding.created', run.timeoutMs);
  },
  async repeated_message(run) {
    const m = run.first ?? run.message('onboarding.created', { onboardingId: run.firstOnboardingId });
    // A second later, so the new signature differs from the first even on a fast run.
    return expectAccepted(await run.send(m, { t: wallClockSeconds() + 1 }), `the same ${m.id} again`, run.timeoutMs);
  },
  async bad_signature(run) {
    const m = run.message('onboarding.started');
    return expectRefused(await run.send(m, { signature: altered(signatureHeader([run.secret], wallClockSeconds(), m.body)) }), 'v1 altered');
  },
  async missing_signature(run) {
    return expectRefused(await run.send(run.message('onboarding.started'), { signature: null }), 'no Service-Signature header');
  },
  async stale_timestamp(run) {
    const m = run.message('onboarding.started', { ageSeconds: STALE_SECONDS });
    return expectRefused(await run.send(m, { t: wallClockSeconds() - STALE_SECONDS }), `signed ${STALE_SECONDS / 60} minutes ago`);
  },
  async body_changed(run) {
    const m = run.message('onboarding.approval_given', { dataVersion: 2, extra: { role: 'manager' } });
    const changed = m.body.replace('"role":"manager"', '"role":"owner"');
    return expectRefused(await run.send(m, { body: changed }), 'body changed after signing');
  },
  async rotation(run) {
    const other = run.previousSecret ?? randomId('whsec');
    const fresh = randomId('whsec');
    // As the service signs while the old secret still co-signs: the receiver's secret first.
    const both = await run.send(run.message('onboarding.approved', { dataVersion: 2 }), { secrets: [run.secret, other] });
    // A rotation the receiver has not taken on yet: its secret is the second, old, value.
    const second = await run.send(run.message('onboarding.approved', { dataVersion: 2 }), { secrets: [fresh, run.secret] });
    return worst([
      expectAccepted(both, run.previousSecret ? 'v1 of the secret, then of the previous secret' : 'v1 of the secret, then of another secret', run.timeoutMs),
      expectAccepted(second, 'v1 of a newer secret, then of the secret', run.timeoutMs),
    ]);
  },
  async out_of_order(run) {
    const onboardingId = randomId('onb');
    const newer = run.message('contract.sent', { dataVersion: 3, onboardingId });
    const older = run.message('onboarding.approved', { dataVersion: 2, ageSeconds: 60, onboardingId });
    const first = await run.send(newer);
    const then = await run.send(older);
    return worst([
      expectAccepted(first, 'the newer contract.sent (data_version 3)', run.timeoutMs),
      expectAccepted(then, 'the older onboarding.approved (data_version 2) after it', run.timeoutMs),
    ]);
  },
  async unknown_event_type(run) {
    return expectAccepted(await run.send(run.message(UNKNOWN_EVENT_TYPE)), UNKNOWN_EVENT_TYPE, run.timeoutMs);
  },
  async older_event_name(run) {
    const older = Object.values(OLDER_NAMES)[0];
    if (!older) return { grade: 'skipped', reason: 'the spec names no older event names', status: null, ms: null };
    return expectAccepted(await run.send(run.message(older)), `${older} (an older name)`, run.timeoutMs);
  },
  async burst(run, burst) {
    const messages = Array.from({ length: burst }, (_, i) =>
      run.message('onboarding.invitation_sent', { onboardingId: randomId('onb'), extra: { kind: i % 2 === 0 ? 'invitation' : 'reminder' } }),
    );
    const results = await Promise.all(messages.map((m) => run.send(m)));
    results.forEach((r, i) => {
      if (r.ok) run.acknowledgedNew.push((JSON.parse(messages[i]!.body) as { data: { onboarding_id: string } }).data.onboarding_id);
    });
    const late = results.filter((r) => !r.ok);
    const ms = Math.max(...results.map((r) => r.durationMs));
    if (late.length === 0) return { grade: 'passed', reason: `all ${burst} acknowledged with 2xx, the slowest in ${ms} ms`, status: results[0]!.status, ms };
    const first = late[0]!;
    const why = first.status === null && first.error?.startsWith('timed out') ? `no answer within ${run.timeoutMs} ms` : answered(first);
    return { grade: 'failed', reason: `${late.length} of ${burst} not acknowledged (first: ${why})`, status: first.status, ms };
  },
};

