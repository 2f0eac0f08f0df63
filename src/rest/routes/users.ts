/** The caller themself: `GET /user` (the SDK's `user.getAuthenticatedUser()`). */
import { presentUser, USER_FRAGMENT } from '../present.js';
import { route, type Route } from '../route.js';

export const userRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/user',
    operation: `query RestAuthenticatedUser { viewer { ...RestUser } } ${USER_FRAGMENT}`,
    variables: () => ({}),
    result: (data) => presentUser(data.viewer),
  }),
];
