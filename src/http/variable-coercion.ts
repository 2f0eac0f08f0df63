/**
 * Variables are coerced by graphql-js before execution, whatever executes the document: the JIT
 * executor has its own coercion with vaguer messages ("Expected type TeamRole" without the path),
 * and clients (REST most of all) rely on messages that name the offending field's full path.
 */
import { createRequire } from 'node:module';
import type { Plugin } from '@envelop/core';

// The graphql module the schema was built with (CommonJS, as Pothos and yoga load it): test
// runners may resolve a bare `import 'graphql'` from this file to the ES build, a second copy.
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

export function useGraphQLJsVariableCoercion(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = graphql.getOperationAST(args.document, args.operationName);
      if (!operation?.variableDefinitions?.length) return;
      const { errors } = graphql.getVariableValues(args.schema, operation.variableDefinitions, args.variableValues ?? {}, { maxErrors: 50 });
      // Answered here, before yoga's error masking would see them: coded as masking would code them.
      if (errors) setResultAndStopExecution({ errors: errors.map((e) => new graphql.GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'BAD_USER_INPUT' } })) });
    },
  };
}
