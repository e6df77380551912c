#!/usr/bin/env node
/**
 * `npm run bench` launcher: bundles the bench (TypeScript, test/bench/main.ts) with esbuild into
 * .cache/bench/main.mjs, dependencies left to node_modules, and runs it with the same arguments. The CLI under
 * test is dist/planwatch.js, built by the npm script before this runs.
 */
import {fileURLToPath, pathToFileURL} from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = `${root}.cache/bench/main.mjs`;

/**
 * Test helpers the bench shares (the watch server) may register Vitest hooks at import; outside Vitest those
 * throw. Here `afterAll` runs its callback when the bench exits, and nothing else of Vitest is available.
 */
const vitestHooksAtExit = {
	name: 'vitest-hooks-at-exit',
	setup(build) {
		build.onResolve({filter: /^vitest$/}, () => ({path: 'vitest', namespace: 'bench-vitest'}));
		build.onLoad({filter: /.*/, namespace: 'bench-vitest'}, () => ({
			contents: "export function afterAll(callback) { process.once('exit', () => { callback(); }); }",
			loader: 'js',
		}));
	},
};
await esbuild.build({
	absWorkingDir: root,
	entryPoints: ['test/bench/main.ts'],
	outfile,
	bundle: true,
	platform: 'node',
	target: 'node22',
	format: 'esm',
	packages: 'external',
	logLevel: 'error',
	plugins: [vitestHooksAtExit],
});
process.env.PLANWATCH_BENCH_ROOT = root;
// The in-process frame bench renders the App with React's production build, as the shipped bundle does, and in
// colour, as in a terminal (chalk decides when Ink loads it; the bench's own output is not a terminal).
process.env.NODE_ENV = 'production';
process.env.FORCE_COLOR ??= '1';
await import(pathToFileURL(outfile).href);
