/**
 * The files the README links to, and the files those pages link to in turn, as the npm tarball must
 * hold them: a README read in node_modules or on the registry's page has dead links otherwise. Only
 * Markdown pages under docs/ are followed; a linked file under one of SHIPPED_FOLDERS (or a top-level
 * file the package ships anyway) is listed; a link to anything else (tests, conformance/, upstream/)
 * is not shipped, so the page must say it as an absolute address of the repository instead —
 * test/package/npm-package.test.ts packs the tree and checks that every relative link resolves inside it.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The folders a shipped page may link into: the other pages and their images, and the examples they show. */
const SHIPPED_FOLDERS = ['docs/', 'examples/'];

/** The relative link targets of a Markdown page (code blocks and inline code left out), without their fragments. */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(m => m[1])
    .filter(l => !/^[a-z][a-z0-9+.-]*:/i.test(l) && !l.startsWith('#'))
    .map(l => decodeURI(l.split('#')[0]));
}

/** The files under SHIPPED_FOLDERS reachable by links from `start` (a page of `root`), sorted, as paths relative to `root`. */
export function linkedFiles(root: string, start = 'README.md'): string[] {
  const found = new Set<string>();
  const pages = [start];
  const seen = new Set(pages);
  while (pages.length > 0) {
    const page = pages.shift()!;
    for (const link of relativeLinks(fs.readFileSync(path.join(root, page), 'utf8'))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), link));
      const file = path.join(root, target);
      if (!SHIPPED_FOLDERS.some(f => target.startsWith(f)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) continue;
      found.add(target);
      if (target.startsWith('docs/') && target.endsWith('.md') && !seen.has(target)) {
        seen.add(target);
        pages.push(target);
      }
    }
  }
  return [...found].sort();
}
