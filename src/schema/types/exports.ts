/** Exports of content: the signed URL of a change request's or a space's PDF (see domain/exports/change-request-pdf.ts). */
import { changeRequestPdfUrl, spacePdfUrl } from '../../domain/versions/exports/change-request-pdf.js';
import { linksAt } from '../../http/paths.js';
import { builder } from '../builder.js';

builder.prismaObjectFields('ChangeRequest', (t) => ({
  pdfURL: t.string({
    description:
      "A temporary URL (valid for 1 hour, no Authorization header needed) of a PDF of the request's content as of now: every page in tree order; " +
      'with `page`, that page and its descendants; with `page` and `only: true`, that page alone (`only` without `page` is ignored). ' +
      'At most 1000 pages and 32 MB of content (else BAD_REQUEST: name a page).',
    args: {
      page: t.arg.id({ required: false, description: 'ID of a page of the request to print (404 when the request has no such page).' }),
      only: t.arg.boolean({ required: false, description: 'Print only the given page, not its descendants.' }),
    },
    resolve: (changeRequest, args, ctx) =>
      changeRequestPdfUrl(ctx, changeRequest.spaceId, changeRequest.id, { page: args.page == null ? null : String(args.page), only: args.only ?? null }, linksAt(ctx.config.publicUrl).pdf),
  }),
}));

builder.prismaObjectFields('Space', (t) => ({
  pdfURL: t.string({
    description: "A temporary URL (valid for 1 hour, no Authorization header needed) of a PDF of the space's current content, as `ChangeRequest.pdfURL`.",
    args: {
      page: t.arg.id({ required: false, description: 'ID of a page of the space to print (404 when the space has no such page).' }),
      only: t.arg.boolean({ required: false, description: 'Print only the given page, not its descendants.' }),
    },
    resolve: (space, args, ctx) => spacePdfUrl(ctx, space.id, { page: args.page == null ? null : String(args.page), only: args.only ?? null }, linksAt(ctx.config.publicUrl).pdf),
  }),
}));
