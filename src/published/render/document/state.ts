/** What one `renderDocument` call carries through the tree. */
import type { RenderContext } from '../context.js';
import { IdRegistry } from '../ids.js';
import { stringsFor, type UiStrings } from '../strings.js';

export type OutlineHeading = { id: string; title: string; level: 1 | 2 | 3 };

export type RenderState = {
  context: RenderContext;
  strings: UiStrings;
  ids: IdRegistry;
  /** Headings met outside containers (tabs, expandables…), for the page outline. */
  outline: OutlineHeading[];
  /**
   * A counter naming generated ids (`tabs_3_panel_1`, `task_4`). They contain `_`, which heading
   * slugs never do, so a heading's anchor does not depend on how many tabs precede it.
   */
  serial: number;
  /** Reusable contents being rendered: one that includes itself is not expanded again. */
  including: Set<string>;
  /** Whether a formula was rendered: the page then loads KaTeX's stylesheet. */
  math: boolean;
};

/**
 * Containers nest at most this deep; below, a subtree is written as its text (see fallback.ts).
 * Keeps the renderer's recursion bounded whatever the document.
 */
export const MAX_DEPTH = 32;

export const newState = (context: RenderContext, lang?: string): RenderState => ({
  context,
  strings: stringsFor(lang),
  ids: new IdRegistry(),
  outline: [],
  serial: 0,
  including: new Set(),
  math: false,
});

/** Renders child blocks; passed to container renderers so that they need not import the dispatcher. */
export type RenderBlocks = (nodes: unknown[], state: RenderState, depth: number) => string;
