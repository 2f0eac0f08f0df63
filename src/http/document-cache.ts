/**
 * Parsed documents and their validation, remembered, in place of yoga's own cache. Yoga's keyed
 * each validation by the names of the ~30 validation rules joined into a string, looked up with a
 * time-to-live check, on every request; here the rules and the schema are the server's, fixed at
 * start, so a document's validation is remembered with the document object itself (which the
 * parse cache hands out again for the same text). Parse errors are remembered too: a client
 * repeating a broken document is not parsed again.
 */
import type { DocumentNode, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/**
 * `max` documents, and at most `maxChars` characters of their text (a parsed document's heap grows
 * with its text: a few thousand large documents would otherwise hold hundreds of megabytes).
 */
export function useDocumentCache({ max = 1024, maxChars = 1_000_000 }: { max?: number; maxChars?: number } = {}): Plugin {
  const bySource = { max, maxSize: maxChars, sizeCalculation: (_: unknown, source: string) => source.length || 1 };
  const documents = new LRUCache<string, DocumentNode>(bySource);
  const parseErrors = new LRUCache<string, Error>(bySource);
  const validations = new WeakMap<DocumentNode, readonly (Error | GraphQLError)[]>();
  return {
    onParse({ params, setParsedDocument }) {
      const source = params.source.toString();
      const document = documents.get(source);
      if (document) return void setParsedDocument(document);
      const error = parseErrors.get(source);
      if (error) throw error;
      return ({ result }) => {
        if (result instanceof Error) parseErrors.set(source, result);
        else if (result) documents.set(source, result);
      };
    },
    onValidate({ params, setResult }) {
      const known = validations.get(params.documentAST);
      if (known) return void setResult(known as GraphQLError[]);
      return ({ result }) => void validations.set(params.documentAST, result);
    },
  };
}
