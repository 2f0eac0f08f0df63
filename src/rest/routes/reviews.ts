/**
 * Reviews and requested reviewers of change requests (tags `change-requests-reviews` and
 * `change-request-reviewers` of the public document), with their documented shapes.
 */
import { badRequest } from '../../lib/errors.js';
import { presentUser, USER_FRAGMENT, wireEnum } from '../present.js';
import { booleanParam, CONNECTION_FIELDS, enumParam, listOf, pageArgs, pick, route, type RestInput } from '../route.js';

type Obj = Record<string, any>;

const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

const ids = ({ params }: RestInput) => ({ spaceId: params.spaceId, id: params.changeRequestId });

/** `format` of the review's comment: a JSON document (the default) or markdown. */
const wantsDocument = (query: URLSearchParams) => (enumParam(query, 'format', ['document', 'markdown'] as const) ?? 'document') === 'document';

const REVIEW_FRAGMENT = /* GraphQL */ `
  fragment RestReview on ChangeRequestReview {
    id changeRequestId spaceId revisionId status outdated comment commentDocument @include(if: $document) createdAt updatedAt
    reviewer { ...RestUser } requestedBy { ...RestUser } urls { location }
  }
  ${USER_FRAGMENT}
`;

const REQUEST_FRAGMENT = /* GraphQL */ `
  fragment RestReviewerRequest on ChangeRequestReviewerRequest { revisionId createdAt user { ...RestUser } requestedBy { ...RestUser } }
  ${USER_FRAGMENT}
`;

/**
 * A review's comment as the documented Comment. It has no life of its own on this server (no
 * replies, reactions or edits): it shares the review's ID and URL, and is always open.
 */
function presentComment(r: Obj, document: boolean): Obj {
  return {
    object: 'comment',
    id: r.id,
    postedBy: presentUser(r.reviewer),
    postedAt: r.createdAt,
    reactions: [],
    replies: 0,
    repliers: [],
    body: document ? { document: r.commentDocument } : { markdown: r.comment },
    target: { space: r.spaceId, revision: r.revisionId, changeRequest: r.changeRequestId, review: r.id },
    urls: { location: r.urls.location },
    permissions: { view: true, edit: false, reply: false, delete: false },
    status: 'open',
  };
}

export const presentReview = (r: Obj, document = true): Obj => ({
  object: 'change-request-review',
  id: r.id,
  revision: r.revisionId,
  reviewer: presentUser(r.reviewer),
  ...(r.requestedBy ? { requestedBy: presentUser(r.requestedBy) } : {}),
  status: wireEnum(r.status),
  outdated: r.outdated,
  ...(r.comment ? { comment: presentComment(r, document) } : {}),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  urls: r.urls,
});

export const presentReviewerRequest = (q: Obj): Obj => ({
  object: 'change-request-requested-reviewer',
  kind: 'user',
  user: presentUser(q.user),
  revision: q.revisionId,
  requestedBy: presentUser(q.requestedBy),
  createdAt: q.createdAt,
});

/** `status` of a review as documented (`approved`, `changes-requested`), as the GraphQL enum value. */
function reviewStatus(body: Record<string, unknown>): string {
  const status = body.status;
  if (status === 'approved') return 'approved';
  if (status === 'changes-requested') return 'changes_requested';
  throw badRequest(`Invalid value for "status": ${status === undefined ? 'required' : 'must be approved or changes-requested'}`, 'status');
}

export const reviewRoutes = [
  route({
    method: 'GET',
    path: `${CR}/reviews`,
    operation: `query RestListChangeRequestReviews($spaceId: ID!, $id: ID!, $first: Int, $after: String, $outdated: Boolean, $document: Boolean!) {
      space(id: $spaceId) { changeRequest(id: $id) { reviews(first: $first, after: $after, outdated: $outdated) { ${CONNECTION_FIELDS} edges { node { ...RestReview } } } } }
    } ${REVIEW_FRAGMENT}`,
    variables: (input) => ({
      ...ids(input),
      ...pageArgs(input.query),
      outdated: booleanParam(input.query, 'outdated'),
      document: wantsDocument(input.query),
    }),
    result: (data, input) => listOf(data.space.changeRequest.reviews, (r: Obj) => presentReview(r, wantsDocument(input.query))),
  }),
  route({
    method: 'POST',
    path: `${CR}/reviews`,
    operation: `mutation RestSubmitChangeRequestReview($spaceId: ID!, $id: ID!, $status: ChangeRequestReviewStatus!, $comment: JSON, $document: Boolean!) {
      review: submitChangeRequestReview(spaceId: $spaceId, id: $id, status: $status, comment: $comment) { ...RestReview }
    } ${REVIEW_FRAGMENT}`,
    variables: (input) => ({
      ...ids(input),
      status: reviewStatus(input.body),
      ...pick(input.body, ['comment']),
      document: true,
    }),
    result: (data) => presentReview(data.review),
    status: 201,
  }),
  route({
    method: 'GET',
    path: `${CR}/reviews/{reviewId}`,
    operation: `query RestGetChangeRequestReview($spaceId: ID!, $id: ID!, $reviewId: ID!, $document: Boolean!) {
      space(id: $spaceId) { changeRequest(id: $id) { review(id: $reviewId) { ...RestReview } } }
    } ${REVIEW_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), reviewId: input.params.reviewId, document: wantsDocument(input.query) }),
    result: (data, input) => presentReview(data.space.changeRequest.review, wantsDocument(input.query)),
  }),
  route({
    method: 'GET',
    path: `${CR}/requested-reviewers`,
    operation: `query RestListRequestedReviewers($spaceId: ID!, $id: ID!, $first: Int, $after: String) {
      space(id: $spaceId) { changeRequest(id: $id) { reviewerRequests(first: $first, after: $after) { ${CONNECTION_FIELDS} edges { node { ...RestReviewerRequest } } } } }
    } ${REQUEST_FRAGMENT}`,
    variables: (input) => ({ ...ids(input), ...pageArgs(input.query) }),
    result: (data) => listOf(data.space.changeRequest.reviewerRequests, presentReviewerRequest),
  }),
  route({
    method: 'POST',
    path: `${CR}/requested-reviewers`,
    operation: `mutation RestRequestReviewers($spaceId: ID!, $id: ID!, $users: [ID!]!, $subject: String) {
      requests: requestChangeRequestReviewers(spaceId: $spaceId, id: $id, users: $users, subject: $subject) { ...RestReviewerRequest }
    } ${REQUEST_FRAGMENT}`,
    // `description` is documented but, as on PATCH of a change request, not something this server sets yet.
    variables: (input) => ({ ...ids(input), ...pick(input.body, ['users', 'subject'], ['users'], ['description']) }),
    result: (data) => ({ users: data.requests.map(presentReviewerRequest) }),
  }),
  route({
    method: 'DELETE',
    path: `${CR}/requested-reviewers/{userId}`,
    operation: `mutation RestRemoveRequestedReviewer($spaceId: ID!, $id: ID!, $userId: ID!) {
      removed: removeChangeRequestReviewer(spaceId: $spaceId, id: $id, userId: $userId)
    }`,
    variables: (input) => ({ ...ids(input), userId: input.params.userId }),
    // OpenAPI: 205 when the reviewer was removed, 204 when they were not requested.
    status: (data) => (data.removed ? 205 : 204),
  }),
];
