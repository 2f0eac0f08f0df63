/** An optional `ID` argument as the domain takes it: a string, or null when not given. */
export const optionalId = (value: string | number | null | undefined): string | null => (value == null ? null : String(value));
