import { builder } from '../builder.js';

export const PositionInput = builder.inputType('PositionInput', {
  description: 'Before or after a sibling space or collection (by ID); omitted: at the end.',
  fields: (t) => ({ before: t.id(), after: t.id() }),
});
