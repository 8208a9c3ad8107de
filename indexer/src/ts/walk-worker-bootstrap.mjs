// Starts an off-thread walk's worker: the indexer's TypeScript sources run through tsx's loader,
// registered on this thread as bin/indexer.js registers it on the main one.
import { register } from 'tsx/esm/api';

register();
await import('./walk-worker.ts');
