/**
 * The import sources' names, the API's `source` values, apart from the readers (index.ts): checking
 * an import's input needs the names only, and the readers (mammoth, parse5, the zip and CSV
 * readers) are loaded by the import job that runs one.
 */
export const IMPORT_SOURCE_NAMES = ['website', 'docx', 'markdown', 'html', 'zip', 'notion', 'dropbox-paper', 'quip', 'google-docs', 'confluence', 'github-wiki'] as const;

export type ImportSourceName = (typeof IMPORT_SOURCE_NAMES)[number];
