/**
 * The bench launchers' one esbuild call: a TypeScript entry under test/ bundled into one ESM file, dependencies
 * left to node_modules (resolved next to the output's directory, so a copy with its own node_modules works too).
 */
import {fileURLToPath, pathToFileURL} from 'node:url';
import * as esbuild from 'esbuild';

export const root = fileURLToPath(new URL('../..', import.meta.url));

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

/** Bundle `entry` (relative to the repository) into `outfile`. */
export async function bundle(entry, outfile) {
	await esbuild.build({
		absWorkingDir: root,
		entryPoints: [entry],
		outfile,
		bundle: true,
		platform: 'node',
		target: 'node22',
		format: 'esm',
		packages: 'external',
		logLevel: 'error',
		plugins: [vitestHooksAtExit],
	});
}

/** Bundle test/bench/NAME.ts into .cache/bench/NAME.mjs and run it in this process (its arguments are ours). */
export async function bundleAndRun(name) {
	const outfile = `${root}.cache/bench/${name}.mjs`;
	await bundle(`test/bench/${name}.ts`, outfile);
	await import(pathToFileURL(outfile).href);
}
