#!/usr/bin/env node
/** Bundles and runs test/bench/ingest-cost.ts (see there). */
import {fileURLToPath, pathToFileURL} from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = `${root}.cache/bench/ingest-cost.mjs`;
await esbuild.build({
	absWorkingDir: root,
	entryPoints: ['test/bench/ingest-cost.ts'],
	outfile,
	bundle: true,
	platform: 'node',
	target: 'node22',
	format: 'esm',
	packages: 'external',
	logLevel: 'error',
});
await import(pathToFileURL(outfile).href);
