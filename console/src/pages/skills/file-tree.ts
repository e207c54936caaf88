/** A skill's files as a tree of folders and files, for the file list beside the editor. */
export type TreeNode =
  | { kind: 'folder'; name: string; path: string; children: TreeNode[] }
  | { kind: 'file'; name: string; path: string; size: number };

export const ROOT_FILE = 'SKILL.md';

/**
 * Folders first, then files, each by name; the root SKILL.md leads, as every skill has it and it is
 * where a reader starts.
 */
export function buildFileTree(files: { path: string; size: number }[]): TreeNode[] {
  const root: TreeNode[] = [];
  for (const file of files) {
    const parts = file.path.split('/').filter((part) => part !== '');
    let level = root;
    for (let depth = 0; depth < parts.length - 1; depth++) {
      const path = parts.slice(0, depth + 1).join('/');
      let folder = level.find((node) => node.kind === 'folder' && node.path === path);
      if (!folder) {
        folder = { kind: 'folder', name: parts[depth], path, children: [] };
        level.push(folder);
      }
      level = (folder as Extract<TreeNode, { kind: 'folder' }>).children;
    }
    if (parts.length > 0)
      level.push({ kind: 'file', name: parts[parts.length - 1], path: parts.join('/'), size: file.size });
  }
  return sortLevel(root);
}

function sortLevel(nodes: TreeNode[]): TreeNode[] {
  for (const node of nodes) if (node.kind === 'folder') sortLevel(node.children);
  return nodes.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

const rank = (node: TreeNode) => (node.path === ROOT_FILE ? 0 : node.kind === 'folder' ? 1 : 2);

/** The tree as rows with their depth, in reading order (what the file list renders). */
export function treeRows(nodes: TreeNode[], depth = 0): { node: TreeNode; depth: number }[] {
  return nodes.flatMap((node) => [
    { node, depth },
    ...(node.kind === 'folder' ? treeRows(node.children, depth + 1) : []),
  ]);
}

/** A path typed for a new file, as the service expects it (no leading `./` or `/`, no blank ends). */
export function normalizeNewPath(typed: string): string {
  return typed
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/|\/)+/, '');
}

/** `1.2 kB`, `340 B`: a file's size in the list. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
