#!/usr/bin/env node
/**
 * `npm run media`: regenerate media/*.svg from the demo (scripts/media/main.ts). The TypeScript is bundled with
 * esbuild (dependencies stay in node_modules) and run in this process. Colours are fixed before anything loads:
 * chalk decides its colour level when Ink first imports it. (The shots pass the time zone to the App: UTC.)
 */
import {mkdir} from 'node:fs/promises';
import {fileURLToPath, pathToFileURL} from 'node:url';
import * as esbuild from 'esbuild';

process.env.FORCE_COLOR = '1';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = `${root}node_modules/.cache/planwatch-media/main.mjs`;
await mkdir(`${root}node_modules/.cache/planwatch-media`, {recursive: true});
try {
	await esbuild.build({
		absWorkingDir: root,
		entryPoints: ['scripts/media/main.ts'],
		outfile,
		bundle: true,
		packages: 'external',
		platform: 'node',
		target: 'node22',
		format: 'esm',
		logLevel: 'error',
	});
} catch {
	// esbuild has printed the error.
	process.exit(1);
}

const {main} = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv.slice(2), `${root}media/`);
