/**
 * Where a mount ends up: the kubelet (makeMounts) turns a relative path into `filepath.Clean("/" + path)`
 * and passes an absolute one through, which the runtime mounts with repeated and trailing slashes
 * ignored, so "data", "/data" and "/data//" are one mount point.
 */
export function mountPointOf(path: string): string {
  if (!path.startsWith('/')) return cleanAbsolute(`/${path}`);
  const collapsed = path.replace(/\/+/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/** Go's `filepath.Clean` of a path that starts with "/": no empty, "." or ".." elements left. */
function cleanAbsolute(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}
