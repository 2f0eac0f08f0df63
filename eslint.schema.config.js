// The GraphQL schema linter (`npm run lint:schema`, run by CI after the schema check): the printed
// schema.graphql must describe what it declares. Every type and every root field (each query,
// mutation and subscription) is described today; the other fields, arguments and enum values
// still have gaps (test/schema-descriptions.test.ts counts them and lets the count only fall).
import graphql from '@graphql-eslint/eslint-plugin';

export default [
  {
    files: ['schema.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: 'schema.graphql' } } },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      '@graphql-eslint/require-description': ['error', { types: true, rootField: true }],
    },
  },
];
