/**
 * Every kind of organization event, one for each kind of committed write, with what it means.
 * The GraphQL enum `OrganizationEventKind` is printed from this table (its descriptions
 * included); webhooks and the audit log will read the same names.
 */
export const EVENT_KINDS = {
  organizationUpdated: 'The organization\'s settings changed.',
  spaceCreated: 'A space was created, or copied (the copy, `data.duplicateOf`: the original; recorded by the copying job).',
  spaceUpdated: 'A space\'s settings changed.',
  spaceMoved: 'A space moved within its organization (collection or position).',
  spaceDeleted: 'A space went to the trash.',
  spaceRestored: 'A space came back from the trash.',
  spacePurged: 'A space past its seven days in the trash was removed for good, with everything in it (told to organization admins).',
  spaceGitSyncStarted: 'A git import or export of the space was queued (`data.direction`, `data.jobId`); `data.configured` (with `url`, `ref`, `projectDirectory`) when it set the space\'s repository, branch or directory.',
  spaceGitSyncCompleted: 'A git import or export of the space ended: `data.direction`, `data.state` (success, failure, timeout), `data.commitId`, `data.revisionId` when content changed, `data.changeRequestId` when a conflict was parked in a change request.',
  spaceTransferred: 'A space moved to another organization: told to the one it joined (`data.fromOrganizationId`) and to the one it left (`data.toOrganizationId`, without `spaceId`).',
  collectionCreated: 'A collection was created.',
  collectionUpdated: 'A collection\'s settings changed.',
  collectionMoved: 'A collection moved within its organization.',
  collectionDeleted: 'A collection was deleted.',
  collectionTransferred: 'A collection moved to another organization: told to the one it joined (`data.fromOrganizationId`) and to the one it left (`data.toOrganizationId`).',
  permissionsUpdated: 'Who may read or write a space or collection changed (`data.users`, `data.teams`: whose grant; `data.role`: the role given, null when removed; absent when a member joined through an invite link).',
  memberUpdated: 'A member joined (an invite, SSO, the CLI), or a member\'s role or SSO changed (`subjectId`: the user; `data.role` and `data.previousRole` when an admin changed the role, `data.sso` when one set SSO).',
  memberRemoved: 'A member was removed from the organization (`subjectId`: the user).',
  teamCreated: 'A team was created.',
  teamUpdated: 'A team\'s name or members changed.',
  teamDeleted: 'A team was deleted.',
  // Change requests and their content (spaceId: the space; subjectId: the change request).
  changeRequestCreated: 'A change request was opened (a draft); `data.number` is its number in the space.',
  changeRequestUpdated: 'A change request\'s subject changed (`data.fields`).',
  changeRequestStatusChanged: 'A change request became draft, open or archived (`data.status`, `data.previous`).',
  changeRequestContentUpdated: 'A new revision of a change request\'s content (an edit, an upload or an import): `data.revisionId`, the pages, files and reusable contents it wrote (`pageIds`/`fileIds`/`reusableContentIds`, the first 100, and their counts).',
  changeRequestUpdatedFromSpace: 'The space\'s current content was brought into a change request (`data.revisionId`, the pages it wrote).',
  changeRequestMerged: 'A change request was merged into its space: `data.revisionId` (the space\'s new revision) and the pages it wrote.',
  changeRequestReviewSubmitted: 'A review of a change request was submitted (`data.reviewId`, `data.status`).',
  changeRequestReviewersChanged: 'Reviewers were asked to review a change request, or a request was withdrawn (`data.added` or `data.removed`: user IDs).',
  // Comments (spaceId: the space; subjectId: the comment, or the reply; `data.changeRequestId` when made in a change request, `data.pageId` when on a page).
  commentCreated: 'A comment was posted (`data.mentions`: the users it mentions).',
  commentUpdated: 'A comment was edited, resolved, reopened or reacted to (`data.fields`: body, status, reactions).',
  commentDeleted: 'A comment was deleted, with its replies.',
  commentReplyCreated: 'A reply was posted in a comment\'s thread (`data.commentId`; `data.mentions`).',
  commentReplyUpdated: 'A reply was edited or reacted to (`data.commentId`, `data.fields`).',
  commentReplyDeleted: 'A reply was deleted (`data.commentId`).',
  // Jobs (spaceId: the space it works on, when it has one).
  jobFinished: 'A job ended: `data.kind` (import, space_duplicate, git_import…), `data.state` (succeeded, failed, cancelled).',
  // Sites and their parts (siteId: the site).
  siteCreated: 'A site was created.',
  siteUpdated: 'A site\'s settings changed, or it was published or unpublished (`data.fields`).',
  siteDeleted: 'A site was deleted (without `siteId`: the site is gone; told to who may see the organization\'s sites).',
  siteSpaceAdded: 'A space was published in a site (`data.spaceId`, `data.sectionId`).',
  siteSpaceUpdated: 'A site space\'s path, condition or position changed (`data.fields`).',
  siteSpaceRemoved: 'A space was removed from a site (`data.spaceId`).',
  siteSectionCreated: 'A section was added to a site.',
  siteSectionUpdated: 'A site section\'s settings or position changed (`data.fields`).',
  siteSectionDeleted: 'A site section was deleted, with its site spaces.',
  siteSectionGroupCreated: 'A group of site sections was created.',
  siteSectionGroupUpdated: 'A group of site sections changed: title, icon or position (`data.fields`).',
  siteSectionGroupDeleted: 'A group of site sections was deleted (its sections stay).',
  siteCustomizationUpdated: 'The customization of a site or of a site space changed (`data.target`: site or siteSpace; `data.removed` when an override was removed).',
  shareLinkCreated: 'A share link of a site was created.',
  shareLinkUpdated: 'A share link of a site was renamed, activated or deactivated (`data.fields`).',
  shareLinkDeleted: 'A share link of a site was deleted.',
  // Organization-level objects (neither spaceId nor siteId).
  memberInviteCreated: 'An e-mail invitation was made or renewed (`data.userId`, `data.role`).',
  memberInviteRevoked: 'A pending e-mail invitation was withdrawn.',
  linkInviteCreated: 'An invite link was created (`data.kind`: organization, space or collection).',
  linkInviteUpdated: 'An invite link\'s role or level changed.',
  linkInviteDeleted: 'An invite link was deleted.',
  ssoProviderCreated: 'A SAML provider was added.',
  ssoProviderUpdated: 'A SAML provider\'s settings changed (`data.fields`).',
  ssoProviderDeleted: 'A SAML provider was deleted.',
  openApiSpecCreated: 'An OpenAPI specification was created (`data.slug`); its processing is queued.',
  openApiSpecUpdated: 'An OpenAPI specification\'s source was replaced (`data.slug`); its processing is queued.',
  openApiSpecDeleted: 'An OpenAPI specification was deleted (`data.slug`).',
  openApiSpecProcessed: 'An OpenAPI specification\'s processing ended: `data.outcome` succeeded (`versionId`, `newVersion`) or failed (`errorCode`).',
  translationCreated: 'Translation settings were created.',
  translationUpdated: 'Translation settings were replaced (title, languages).',
  translationDeleted: 'Translation settings were deleted.',
  customFontCreated: 'A custom font was created.',
  customFontUpdated: 'A custom font\'s family or faces changed.',
  customFontDeleted: 'A custom font was deleted.',
  // API tokens (organization admins): told to each organization the token reaches — the one it is confined to, else every one its holder is an active member of.
  apiTokenCreated: 'An API token was issued to a member — by the API, SAML sign-in, an invitation or the CLI, but not the first token of an account the CLI creates (`subjectId`: the token; `data.userId`, `data.name`, `data.confined`, `data.sso` when issued by SAML sign-in, `data.expiresAt`).',
  apiTokenRevoked: 'A member\'s API token was revoked (`subjectId`: the token; `data.userId`, `data.name`).',
  // Webhook endpoints (organization admins).
  webhookEndpointCreated: 'A webhook endpoint was registered.',
  webhookEndpointUpdated: 'A webhook endpoint\'s address, events or state changed, or its secret was rotated (`data.fields`).',
  webhookEndpointDeleted: 'A webhook endpoint was deleted.',
  webhookEndpointDisabled: 'The server turned a webhook endpoint off after its deliveries failed for too long (`data.reason`).',
} as const satisfies Record<string, string>;

export type OrganizationEventKind = keyof typeof EVENT_KINDS;

export const ORGANIZATION_EVENT_KINDS = Object.keys(EVENT_KINDS) as OrganizationEventKind[];
