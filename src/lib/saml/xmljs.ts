/**
 * Accessors for the xml2js shape node-saml hands back (prefixes stripped, every child an array,
 * attributes under `$`, text under `_`). Unknown shapes read as undefined, never throw.
 */
export type XmlJs = { $?: Record<string, string>; _?: string; [child: string]: unknown };

export function children(node: XmlJs | undefined, name: string): XmlJs[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value.filter((v) => v !== null && typeof v === 'object') as XmlJs[]) : [];
}

export function child(node: XmlJs | undefined, name: string): XmlJs | undefined {
  return children(node, name)[0];
}

export function attr(node: XmlJs | undefined, name: string): string | undefined {
  const value = node?.$?.[name];
  return typeof value === 'string' ? value : undefined;
}

export function text(node: XmlJs | undefined): string | undefined {
  return typeof node?._ === 'string' ? node._ : undefined;
}
