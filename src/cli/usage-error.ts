/** A mistake in how the CLI was called: reported with the usage text. */
export class UsageError extends Error {}
