#!/usr/bin/env node
/**
 * `npm run bench` launcher: bundles the bench (TypeScript, test/bench/main.ts) with esbuild into
 * .cache/bench/main.mjs, dependencies left to node_modules, and runs it with the same arguments. The CLI under
 * test is dist/planwatch.js, built by the npm script before this runs.
 */
import {pathToFileURL} from 'node:url';
import {bundle, root} from './bundle.mjs';

const outfile = `${root}.cache/bench/main.mjs`;
await bundle('test/bench/main.ts', outfile);
process.env.PLANWATCH_BENCH_ROOT = root;
// The in-process frame bench renders the App with React's production build, as the shipped bundle does, and in
// colour, as in a terminal (chalk decides when Ink loads it; the bench's own output is not a terminal).
process.env.NODE_ENV = 'production';
process.env.FORCE_COLOR ??= '1';
await import(pathToFileURL(outfile).href);
