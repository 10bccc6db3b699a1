import { Type } from '../../core/schema.js';
import type { WorkspacePart } from '../../core/workspace.js';
import type { OutboxMail } from './onboardings.outbox.js';

const Str = Type.String({ minLength: 1 });
const Instant = Type.String({ format: 'date-time' });

/** The outbox: empty at creation and after a reset; a snapshot holds the mails as they are. */
export const OUTBOX_PART: WorkspacePart<'outbox'> = {
  name: 'outbox',
  create: () => [],
  save: (mails) => mails,
  load: (saved) => saved,
  // What the control API reads of a mail; the rest is shown as it was stored.
  schema: Type.Unsafe<OutboxMail[]>(Type.Array(Type.Object({ id: Str, to: Type.String(), onboarding_id: Str, sent_at: Instant }))),
};
