/**
 * The platform's JSON document model (`JSONDocument` of the public API document): a page body is a
 * tree of blocks, inlines and texts, each block and inline optionally keyed (`key`) so that edits,
 * merges and re-imports can follow a block across revisions. See ../shared/reference/content-model.md.
 */

export type Mark = { object: 'mark'; type: string; data?: Record<string, unknown> };
export type Leaf = { object: 'leaf'; text: string; marks: Mark[] };
export type TextNode = { object: 'text'; key?: string; leaves: Leaf[] };

export type InlineNode = {
  object: 'inline';
  type: string;
  key?: string;
  data?: Record<string, unknown>;
  isVoid?: boolean;
  nodes?: (InlineNode | TextNode)[];
};

/** A named child list of a block (an image caption, a table cell, an expandable's title/body). */
export type FragmentNode = { object: 'fragment'; key?: string; fragment: string; type?: string; nodes: BlockNode[] };

export type BlockNode = {
  object: 'block';
  type: string;
  key?: string;
  data?: Record<string, unknown>;
  isVoid?: boolean;
  nodes?: (BlockNode | InlineNode | TextNode)[];
  fragments?: FragmentNode[];
};

export type JSONDocument = { object: 'document'; data: { schemaVersion?: number } & Record<string, unknown>; nodes: BlockNode[] };

export type DocumentNode = BlockNode | InlineNode | TextNode;

export const emptyDocument = (): JSONDocument => ({ object: 'document', data: {}, nodes: [] });
