/**
 * Where a wiki's git repository is, from what a user pastes: the repository itself
 * (`https://host/owner/repo.wiki.git`, or any git URL) or the wiki's page URL
 * (`https://github.com/owner/repo/wiki`, `…/wiki/Some-Page`), whose repository is
 * `https://github.com/owner/repo.wiki.git`. Also the web addresses the wiki's own pages use for
 * each other and for its files, so that absolute links to them resolve to what was imported.
 */
export type WikiLocation = {
  /** The git repository's URL (no credentials, no fragment). */
  remote: string;
  /** Prefixes of absolute URLs naming a page (`…/wiki/`) or a file of the wiki, lower case. */
  webBases: string[];
};

export function wikiLocation(input: string): WikiLocation {
  const url = new URL(input);
  url.hash = '';
  url.search = '';
  const path = url.pathname.replace(/\/+$/, '');
  const wiki = /^(.*?)\/wiki(?:\/.*)?$/.exec(path);
  let repository: string;
  let remotePath: string;
  if (/\.wiki\.git$/i.test(path)) {
    repository = path.replace(/\.wiki\.git$/i, '');
    remotePath = path;
  } else if (wiki && wiki[1]) {
    repository = wiki[1];
    remotePath = `${wiki[1]}.wiki.git`;
  } else {
    repository = path.replace(/\.git$/i, '');
    remotePath = path;
  }
  const origin = url.origin;
  const bases = [`${origin}${repository}/wiki/`];
  // GitHub serves a wiki's files from raw.githubusercontent.com/wiki/<owner>/<repo>/.
  if (/^(www\.)?github\.com$/i.test(url.hostname)) bases.push(`https://raw.githubusercontent.com/wiki${repository}/`);
  return { remote: `${origin}${remotePath}`, webBases: bases.map((base) => base.toLowerCase()) };
}
