// @sextant/query/node: everything in this barrel is public API. Node-only: reading an index from a
// directory on disk. Kept behind this subpath so that the root entry stays runtime-neutral (the
// worker bundles it); node-only.test.ts proves the root reaches no `node:` module.
export { checkBytes, checkedInflate, DirShardSource, isEntryBytes } from './dir-shard-source.ts';
export { linksInWorkTrees, SEXTANT_DIR, workingTreeIndexPath } from './working-tree-indexes.ts';
