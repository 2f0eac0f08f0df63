/** The one input that places an item among its siblings (domain/kernel/position.ts), for every move. */
import { builder } from '../builder.js';

export const PositionInput = builder.inputType('PositionInput', {
  description: 'Before or after a sibling (by ID) — a space or collection, a site section, section group or site space; omitted: at the end.',
  fields: (t) => ({ before: t.id({ description: 'The ID of the sibling to go right before.' }), after: t.id({ description: 'The ID of the sibling to go right after.' }) }),
});
