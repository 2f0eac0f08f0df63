/** Header links may carry a visitor condition (the public `Expression`): the schema only bounds its length, so it is parsed too. */
import { validateCondition } from '../visitors/condition.js';
import { isPlainObject } from './schema.js';

/** Throws a 400 naming `header.links.<i>.condition` when one does not parse; an empty condition means none. */
export function checkHeaderConditions(header: unknown): void {
  const links = isPlainObject(header) && Array.isArray(header.links) ? header.links : [];
  links.forEach((link: unknown, i) => {
    const condition = isPlainObject(link) ? link.condition : undefined;
    if (typeof condition === 'string' && condition !== '') validateCondition(condition, `header.links.${i}.condition`);
  });
}
