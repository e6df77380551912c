#!/usr/bin/env node
/**
 * Build: source/cli.tsx → dist/planwatch.js, the executable ESM entry, with every dependency bundled (one
 * bundle loads faster than hundreds of node_modules files, and the installed bin cannot pick up another
 * ink/react than the one it was tested with). What the CLI imports on demand (the TUI with Ink and React,
 * client-node for files and clusters) becomes lazily loaded chunks in dist/chunks/, so `--help`, usage errors
 * and plain output do not compile code they never run. source/index.ts → dist/index.js, the library, is an
 * entry of the same build: it is bundled too (the package has no runtime dependencies, so `npx planwatch`
 * installs nothing) and shares its chunks with the CLI (client-node ships once). `--types` also writes the
 * library's declarations to dist/types/ with tsc (tsconfig.build.json; seconds, so only for `npm run build`
 * and `npm pack`). `--quiet` prints nothing unless the build fails. `--no-minify` keeps names for CPU and heap
 * profiles.
 *
 * The bin's entry is source/bin.ts: it checks the Node version, then imports the CLI (a chunk), so an old Node
 * gets one line instead of a crash inside a dependency. `--sea` builds instead dist/sea/planwatch.mjs, the same
 * CLI as one file without chunks, for Node's single executable application (scripts/release.mjs): a SEA's
 * main script can import only built-in modules. esbuild turns each dynamic import of a bundled module into a
 * deferred call into the same file, so what `--help` and `-f` skip is still not evaluated, only parsed.
 */
import {spawnSync} from 'node:child_process';
import {chmod, mkdir, readdir, rename, rm, writeFile} from 'node:fs/promises';
import {dirname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import * as esbuild from 'esbuild';
import {patchDependencies} from './patch-deps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const quiet = process.argv.includes('--quiet');
const types = process.argv.includes('--types');
const sea = process.argv.includes('--sea');
// --no-minify: readable names in CPU and heap profiles (docs/performance.md); never for a release.
const minify = !process.argv.includes('--no-minify');
const log = quiet ? () => {} : message => console.log(message);
const started = performance.now();

// The bundle carries its dependencies: make sure it carries them patched (patches/, normally applied by npm ci).
try {
	for (const line of patchDependencies()) {
		log(line);
	}
} catch (error) {
	console.error(`build: ${error.message}`);
	process.exit(1);
}

/** esbuild has already printed what went wrong; exit without a second, stack-traced copy. */
async function build(options) {
	try {
		return await esbuild.build(options);
	} catch {
		process.exit(1);
	}
}

const common = {
	absWorkingDir: root,
	bundle: true,
	platform: 'node',
	target: 'node22',
	format: 'esm',
	sourcemap: false,
	logLevel: quiet ? 'error' : 'warning',
	legalComments: 'none',
	// Minified, a class is `ni`: errors the library throws would print as `ni: …`. Keep class and function names.
	keepNames: true,
};

// Bundled CommonJS dependencies call require() for Node built-ins; ESM has no require, so provide one.
const requireShim = "import {createRequire as __planwatchRequire} from 'node:module';const require=__planwatchRequire(import.meta.url);";

/**
 * Ink connects to React DevTools only when DEV=true and react-devtools-core is installed; its devtools module
 * imports that package statically, which a bundle would hoist into an import at startup. The bin ships
 * without DevTools support: the module is replaced by an empty one. Measured: without this plugin the build stops
 * (esbuild: `Could not resolve "react-devtools-core"`, a package planwatch does not install); with the package
 * installed, the bundle would carry it. One of the interventions listed in docs/interventions.md.
 */
const withoutInkDevtools = {
	name: 'without-ink-devtools',
	setup(build) {
		build.onResolve({filter: /^\.\/devtools\.js$/}, args =>
			args.importer.includes('/node_modules/ink/') ? {path: 'ink-devtools', namespace: 'planwatch-empty'} : undefined,
		);
		build.onLoad({filter: /.*/, namespace: 'planwatch-empty'}, () => ({contents: '', loader: 'js'}));
	},
};

/**
 * cli-cursor (Ink's) imports restore-cursor, which writes the show-cursor sequence to stderr at exit even when
 * stderr is a file; source/cli/restore-cursor.ts writes it only to a terminal. Measured: without it every TUI run
 * of `planwatch 2>err.log` left 6 bytes (`ESC[?25h`) in err.log. Listed in docs/interventions.md.
 */
const restoreCursorToTerminal = {
	name: 'restore-cursor-to-terminal',
	setup(build) {
		build.onResolve({filter: /^restore-cursor$/}, args =>
			args.importer.includes('/node_modules/cli-cursor/') ? {path: join(root, 'source', 'cli', 'restore-cursor.ts')} : undefined,
		);
	},
};

/**
 * `node:http` is loaded with require() instead of `import`. Importing a built-in builds its ES module facade,
 * which reads every export once, getters included: `http.WebSocket` (Node 22.4+) then loads Node's own undici,
 * ~40–55 ms of CPU before a cluster run's first frame (import 84 ms against require 11 ms measured alone at load
 * average ~20: `npm exec -- node test/bench/interventions.mjs`), for a WebSocket nothing of planwatch uses (client-node
 * brings its own undici). require() returns the module without touching its getters. Each static import of it
 * becomes a one-line CommonJS module, `module.exports = require('node:http')`, kept with its importer (one per
 * importing file, so that esbuild does not give it a chunk of its own); esbuild's interop gives default and named
 * imports the same values as before. Only http: the other built-ins' facades cost little, less than the interop's
 * copy of a module's properties at every import of it (tens of import sites for fs, path or process).
 * `test/cli/startup-loading.test.ts` fails if Node's undici loads again. Listed in docs/interventions.md.
 */
const requiredBuiltins = new Set(['http', 'node:http']);
const httpThroughRequire = {
	name: 'http-through-require',
	setup(build) {
		build.onResolve({filter: /^(node:)?http$/}, args =>
			args.kind === 'import-statement' && requiredBuiltins.has(args.path)
				? {path: `${args.path} from ${relative(root, args.importer)}`, namespace: 'planwatch-builtin'}
				: undefined,
		);
		build.onLoad({filter: /.*/, namespace: 'planwatch-builtin'}, args => ({
			contents: `module.exports = require(${JSON.stringify(args.path.split(' ')[0])});`,
			loader: 'js',
		}));
	},
};

/**
 * The executable entry starts with the shebang (source/bin.ts turns the compile cache on: source/cli/compile-cache.ts);
 * every file gets `require`. The library entry and the chunks must not touch the compile cache: that is the host
 * application's choice.
 */
function withBanner(file, entry) {
	const banner = file.path === entry ? `#!/usr/bin/env node\n${requireShim}` : requireShim;
	return {path: file.path, contents: Buffer.concat([Buffer.from(banner), file.contents])};
}

/**
 * Put every output file in place by rename, never by rewriting it: test files build and run the bin in
 * parallel, and a planwatch still running must never load a half-written file.
 */
async function writeAtomically(outputFiles, executable) {
	for (const file of outputFiles) {
		const temporary = `${file.path}.${process.pid}.tmp`;
		await mkdir(dirname(file.path), {recursive: true});
		await writeFile(temporary, file.contents);
		if (file.path === executable) {
			await chmod(temporary, 0o755);
		}

		await rename(temporary, file.path);
	}
}

/** Chunk names carry content hashes: remove the chunks this build did not produce. */
async function pruneChunks(outputFiles) {
	const chunks = join(root, 'dist', 'chunks');
	const keep = new Set(outputFiles.map(f => f.path));
	for (const name of await readdir(chunks).catch(() => [])) {
		if (!keep.has(join(chunks, name)) && !name.endsWith('.tmp')) {
			await rm(join(chunks, name), {force: true});
		}
	}
}

/** The commit `planwatch version -o json` reports; `unknown` outside a git checkout (e.g. built from the npm tarball). */
function gitCommit() {
	const git = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], {cwd: root, encoding: 'utf8'});
	if (git.status !== 0) {
		return 'unknown';
	}

	const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], {cwd: root, encoding: 'utf8'});
	return `${git.stdout.trim()}${dirty.stdout?.trim() ? '-dirty' : ''}`;
}

const define = {
	// React's development build is slower and larger; the bin is always a production build.
	'process.env.NODE_ENV': '"production"',
	PLANWATCH_COMMIT: JSON.stringify(gitCommit()),
};

if (sea) {
	const single = await build({
		...common,
		entryPoints: ['source/bin.ts'],
		outfile: 'dist/sea/planwatch.mjs',
		splitting: false,
		minify,
		metafile: true,
		// source/bin.ts leaves Node's compile cache off: the SEA loads no file it could cache.
		define: {...define, PLANWATCH_STANDALONE: 'true'},
		plugins: [withoutInkDevtools, restoreCursorToTerminal, httpThroughRequire],
		// The SEA has no disk to cache compiled code on; scripts/release.mjs asks for a code cache instead.
		banner: {js: requireShim},
		write: false,
	});
	const [file] = single.outputFiles;
	if (single.outputFiles.length !== 1 || /\bimport\s*\(\s*["'][./]/.test(file.text)) {
		console.error('build: the SEA bundle must be one file that imports no other file');
		process.exit(1);
	}

	await writeAtomically(single.outputFiles, '');
	log(`dist/sea/planwatch.mjs ${(file.contents.length / 1024).toFixed(0).padStart(6)} KiB in ` +
		`${Math.round(performance.now() - started)} ms`);
	process.exit(0);
}

const cli = await build({
	...common,
	entryPoints: [
		{in: 'source/bin.ts', out: 'planwatch'},
		{in: 'source/index.ts', out: 'index'},
	],
	outdir: 'dist',
	splitting: true,
	chunkNames: 'chunks/[name]-[hash]',
	minify,
	metafile: true,
	define,
	plugins: [withoutInkDevtools, restoreCursorToTerminal, httpThroughRequire],
	write: false,
});

// node-pty and @xterm are test tools (terminal tests drive the built bin); the product must never load them.
const bundled = Object.keys(cli.metafile.inputs);
const forbidden = bundled.filter(path => path.includes('node_modules/node-pty/') || path.includes('node_modules/@xterm/'));
if (forbidden.length > 0) {
	console.error(`build: the CLI bundle must not include test-only packages: ${forbidden.join(', ')}`);
	process.exit(1);
}

/** The output files `entry` loads through static imports (itself included), not the chunks it imports on demand. */
const staticImports = entry => {
	const loaded = new Set();
	const visit = file => {
		if (!loaded.has(file)) {
			loaded.add(file);
			for (const i of cli.metafile.outputs[file]?.imports ?? []) {
				if (i.kind === 'import-statement' && !i.external) {
					visit(i.path);
				}
			}
		}
	};

	visit(entry);
	return loaded;
};

// The library must not load the TUI: an application that only waits for plans should not pay for React and Ink.
const loadedByLibrary = staticImports('dist/index.js');
// The entry checks the Node version, then imports the library's body (source/library.ts) as a chunk.
const libraryBody = Object.entries(cli.metafile.outputs).find(([, output]) => output.entryPoint === 'source/library.ts')?.[0];
if (libraryBody === undefined) {
	console.error('build: source/library.ts is not a chunk of its own');
	process.exit(1);
}

const tui = [...loadedByLibrary, ...staticImports(libraryBody)]
	.flatMap(file => Object.keys(cli.metafile.outputs[file].inputs))
	.filter(path => /node_modules\/(ink|react)\//.test(path));
if (tui.length > 0) {
	console.error(`build: the library entry loads the TUI: ${tui.slice(0, 3).join(', ')}`);
	process.exit(1);
}

// The bin's entry checks the Node version before the CLI loads: what it imports statically must be that check
// alone (esbuild's runtime helpers carry no input), or an old Node could fail before it prints its one line.
const staticallyLoaded = staticImports('dist/planwatch.js');
// core/exit-codes.ts is a plain object literal without imports: the bin names its exit code from it.
// cli/compile-cache.ts and cli/semi-space-exec.ts import only Node built-ins; the bin calls them after the check.
const beforeCheck = [...staticallyLoaded]
	.flatMap(file => Object.keys(cli.metafile.outputs[file].inputs))
	.filter(path => ![
		'source/bin.ts',
		'source/cli/node-version.ts',
		'source/cli/compile-cache.ts',
		'source/cli/semi-space-exec.ts',
		'source/core/exit-codes.ts',
	].includes(path));
if (beforeCheck.length > 0) {
	console.error(`build: the bin loads modules before its Node version check: ${beforeCheck.slice(0, 3).join(', ')}`);
	process.exit(1);
}

// The library's entry makes the same check before the library loads (source/index.ts).
const beforeLibraryCheck = [...loadedByLibrary]
	.flatMap(file => Object.keys(cli.metafile.outputs[file].inputs))
	.filter(path => !['source/index.ts', 'source/cli/node-version.ts'].includes(path));
if (beforeLibraryCheck.length > 0) {
	console.error(`build: the library loads modules before its Node version check: ${beforeLibraryCheck.slice(0, 3).join(', ')}`);
	process.exit(1);
}

const entry = join(root, 'dist', 'planwatch.js');
await writeAtomically(cli.outputFiles.map(file => withBanner(file, entry)), entry);
await pruneChunks(cli.outputFiles);
for (const [file, output] of Object.entries(cli.metafile.outputs)) {
	log(`${file.padEnd(40)} ${(output.bytes / 1024).toFixed(0).padStart(6)} KiB`);
}

if (types) {
	// Into a fresh directory, swapped in whole: no declaration of a deleted source file lingers.
	const next = join(root, 'dist', `types.${process.pid}.tmp`);
	const tsc = spawnSync(
		process.execPath,
		[join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', next],
		{cwd: root, stdio: 'inherit'},
	);
	if (tsc.status !== 0) {
		await rm(next, {recursive: true, force: true});
		console.error('build: tsc could not write the library declarations');
		process.exit(1);
	}

	await rm(join(root, 'dist', 'types'), {recursive: true, force: true});
	await rename(next, join(root, 'dist', 'types'));
	log('dist/types/');
}

log(`built in ${Math.round(performance.now() - started)} ms`);
