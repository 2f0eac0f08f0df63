// The GraphQL schema linter (`npm run lint:schema`, run by CI after the schema check): the printed
// schema.graphql must describe everything it declares — every type, directive, field (root fields
// included), argument, input field and enum value (test/schema-descriptions.test.ts checks the
// same on the built schema).
import graphql from '@graphql-eslint/eslint-plugin';

export default [
  {
    files: ['schema.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: 'schema.graphql' } } },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          DirectiveDefinition: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
        },
      ],
    },
  },
];
