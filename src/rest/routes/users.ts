/**
 * Users: the caller themself (`GET /user`, the SDK's `user.getAuthenticatedUser()`), and a user by
 * ID (`GET /users/{userId}`, where every user's `urls.location` points), found only when the
 * caller may see them (members/access.ts visibleUsers), like `node(id)`; the caller's own profile
 * changed (`PATCH /users/{userId}`, identity/profile.ts).
 */
import { notFound } from '../../lib/errors.js';
import { presentUser, USER_FRAGMENT } from '../present.js';
import { pick, route, type Route } from '../route.js';

export const userRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/user',
    operation: `query RestAuthenticatedUser { viewer { ...RestUser } } ${USER_FRAGMENT}`,
    variables: () => ({}),
    result: (data) => presentUser(data.viewer),
  }),
  route({
    method: 'GET',
    path: '/users/{userId}',
    operation: `query RestUserById($id: ID!) { node(id: $id) { ... on User { ...RestUser } } } ${USER_FRAGMENT}`,
    variables: ({ params }) => ({ id: params.userId }),
    // Another kind of ID resolves to another node, which the fragment leaves empty.
    result: (data) => {
      if (!data.node?.id) throw notFound('User');
      return presentUser(data.node);
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/{userId}',
    operation: `mutation RestUpdateUser($userId: ID!, $input: UpdateUserInput!) { updateUser(userId: $userId, input: $input) { ...RestUser } } ${USER_FRAGMENT}`,
    variables: ({ params, body }) => ({ userId: params.userId, input: pick(body, ['displayName', 'photoURL']) }),
    result: (data) => presentUser(data.updateUser),
  }),
];
