/**
 * A bound on how deep a GraphQL document nests its braces, brackets and parentheses. graphql-js
 * parses recursively: a list literal nested 2,400 levels deep (`[[[…]]]`, within the token limit)
 * overflowed the stack and answered INTERNAL. The selection-depth limit is checked on the parsed
 * document, too late for that; so the document's tokens are counted first, with graphql-js's own
 * lexer (strings, block strings and comments read as the parser reads them), and one nested
 * deeper than the limit is refused before it is parsed.
 */
import { Lexer, Source, TokenKind } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Whether `source` nests deeper than `maxDepth`, reading at most `maxTokens` tokens (the parser
 * refuses a longer document itself). A lexical error ends the count: the parser words it.
 */
export function documentNestsDeeperThan(source: string, maxDepth: number, maxTokens: number): boolean {
  const lexer = new Lexer(new Source(source));
  let depth = 0;
  try {
    for (let tokens = 0; tokens <= maxTokens; tokens++) {
      const { kind } = lexer.advance();
      if (kind === TokenKind.EOF) return false;
      if (OPENING.has(kind) && ++depth > maxDepth) return true;
      if (CLOSING.has(kind)) depth--;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * Refuses documents nested deeper than `maxDepth` with a BAD_REQUEST naming the limit. It wraps
 * the parse function the plugins before it settled on (the token limit's), so it must follow
 * them; documents already parsed (the document cache) are not counted again.
 */
export function useMaxDocumentNesting(maxDepth: number, maxTokens: number): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        if (documentNestsDeeperThan(typeof source === 'string' ? source : source.body, maxDepth, maxTokens)) {
          throw createGraphQLError(`The document is nested deeper than ${maxDepth} levels (braces, brackets and parentheses)`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
        }
        return parseFn(source, options);
      });
    },
  };
}
