import { Type, type Static } from '../../core/schema.js';
import { DateTime } from '../common.schemas.js';
import { EXTERNAL_ID_MAX, REVIEWER_NAME_MAX } from './reviews.model.js';

export const ReviewSessionBody = Type.Object(
  {
    reviewer: Type.Object(
      {
        email: Type.String({ format: 'email', description: "E-mail of the reviewer's account" }),
        external_id: Type.String({ minLength: 1, maxLength: EXTERNAL_ID_MAX, description: "Stable id of the user in the client's product" }),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: REVIEWER_NAME_MAX })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'ReviewSessionRequest', examples: [{ reviewer: { email: 'mark.manager@acme.test', external_id: 'partner-user-42', name: 'Mark Manager' } }] },
);
export type ReviewSessionBody = Static<typeof ReviewSessionBody>;

export const ReviewSessionSchema = Type.Object(
  {
    id: Type.String({ pattern: '^rvs_' }),
    onboarding_id: Type.String({ pattern: '^onb_' }),
    review_url: Type.String({ format: 'uri' }),
    expires_at: DateTime,
    reviewer: Type.Object({
      email: Type.String(),
      external_id: Type.String(),
      name: Type.String({ description: 'as given; empty when no name was given' }),
      linked: Type.Boolean(),
    }),
  },
  { title: 'ReviewSession' },
);
