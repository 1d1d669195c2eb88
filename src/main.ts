import { enableCompileCache } from 'node:module';

// The process entry. Before anything else is loaded, V8's compiled code for every module (ours and
// our dependencies') is kept in an on-disk cache, so a start after the first reuses it: importing
// the service measured ~330 ms without it and ~170 ms with it, and ~24 MB less resident memory.
// If the cache directory cannot be written the start simply goes without it.
enableCompileCache();
await import('./run.ts');
