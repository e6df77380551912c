/**
 * What `npm pack` ships: the bins, the library entry with its declarations, every chunk they load, nothing of
 * the sources or tests, and no runtime dependency (dist/ is a full bundle, so `npx planwatch` installs nothing).
 * `npm pack --dry-run` runs prepack, i.e. the same build a release gets.
 */
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {isBuiltin} from 'node:module';
import {tmpdir} from 'node:os';
import {dirname, join, normalize} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {npmFigures, quotedFigures} from '../../scripts/release/figures.mjs';
import {listTarGz} from '../helpers/archive-listing.js';
import {repoRoot} from '../helpers/run-bin.js';

type PackedFile = {readonly path: string; readonly size: number; readonly mode: number};

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
	bin: Record<string, string>;
	exports: Record<string, Record<string, string>>;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	bundleDependencies?: unknown;
	engines: {node: string};
};

let files: PackedFile[] = [];
let paths = new Set<string>();
/** package.json as the tarball of a real `npm pack` has it, and the repository's before and after the pack. */
let packed: Record<string, unknown> = {};
/** npm's own report of the pack: what docs/install.md quotes. */
let packReport = {filename: '', size: 0, unpackedSize: 0};
let before = '';
let after = '';
const packDir = mkdtempSync(join(tmpdir(), 'planwatch-pack-'));

beforeAll(() => {
	// The npm that runs the tests (npm test / npm exec), else the one on PATH.
	const npm = process.env['npm_execpath'] ? [process.execPath, process.env['npm_execpath']] : ['npm'];
	before = readFileSync(join(repoRoot, 'package.json'), 'utf8');
	const result = spawnSync(npm[0]!, [...npm.slice(1), 'pack', '--pack-destination', packDir, '--json', '--loglevel=error'], {cwd: repoRoot, encoding: 'utf8'});
	after = readFileSync(join(repoRoot, 'package.json'), 'utf8');
	if (result.status !== 0) {
		throw new Error(`npm pack failed (${String(result.status)}):\n${result.stderr}`);
	}

	// prepack's build prints nothing (--quiet), so stdout is npm's JSON alone.
	const [report] = JSON.parse(result.stdout) as Array<{files: PackedFile[]; filename: string; size: number; unpackedSize: number}>;
	files = report!.files;
	packReport = report!;
	paths = new Set(files.map(f => f.path));
	const entry = listTarGz(readFileSync(join(packDir, report!.filename))).find(e => e.name === 'package/package.json');
	packed = JSON.parse(entry!.data.toString('utf8')) as Record<string, unknown>;
});

afterAll(() => {
	rmSync(packDir, {recursive: true, force: true});
});

/** A bare module specifier: `name`, `name/sub`, `@scope/name…`, `node:…`. */
const packageName = /^(?:node:)?(?:@[a-z\d][\w.-]*\/)?[a-z\d][\w.-]*(?:\/[\w./-]+)?$/i;

/** Relative modules a built file imports (static, dynamic and re-exports), as package paths. */
function relativeImports(path: string): string[] {
	const text = readFileSync(join(repoRoot, path), 'utf8');
	const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map(m => m[1]!);
	return specifiers.filter(s => s.startsWith('.')).map(s => normalize(join(dirname(path), s)));
}

/** Every file reachable from `entry` through relative imports. */
function closure(entry: string): string[] {
	const seen = new Set<string>();
	const visit = (path: string): void => {
		if (seen.has(path)) {
			return;
		}

		seen.add(path);
		for (const next of relativeImports(path)) {
			visit(next.endsWith('.d.ts') || !path.endsWith('.d.ts') ? next : next.replace(/\.js$/, '.d.ts'));
		}
	};

	visit(entry);
	return [...seen];
}

describe('npm pack', () => {
	it('ships the bins (kubectl-planwatch makes `kubectl planwatch` work, kubectl_complete-planwatch its <TAB>), executable, with a shebang', () => {
		expect(Object.keys(manifest.bin).sort()).toEqual(['kubectl-planwatch', 'kubectl_complete-planwatch', 'planwatch']);
		for (const target of Object.values(manifest.bin)) {
			expect(paths, target).toContain(normalize(target));
			expect(readFileSync(join(repoRoot, target), 'utf8').startsWith('#!/usr/bin/env node\n'), target).toBe(true);
			expect(files.find(f => f.path === normalize(target))!.mode & 0o111, `${target} is executable`).not.toBe(0);
		}
	});

	it('ships the library entry and its declarations; exports targets are "./" paths (Node rejects anything else)', () => {
		const targets = Object.values(manifest.exports['.']!);
		expect(targets.sort()).toEqual(['./dist/index.js', './dist/types/index.d.ts']);
		for (const target of targets) {
			expect(paths, target).toContain(normalize(target));
		}
	});

	it('ships every chunk and declaration the entries load', () => {
		const needed = [...closure('dist/planwatch.js'), ...closure('dist/index.js'), ...closure('dist/types/index.d.ts')];
		expect(needed.filter(path => !paths.has(path))).toEqual([]);
		// The chunk behind the TUI is loaded lazily: it must be there too.
		expect(needed.some(path => path.startsWith('dist/chunks/run-tui-'))).toBe(true);
	});

	it('is as big as docs/install.md says (node scripts/install-figures.mjs --write puts the figures there)', () => {
		const quoted = quotedFigures(readFileSync(join(repoRoot, 'docs', 'install.md'), 'utf8'));
		expect(quoted, 'docs/install.md has the install-figures markers').toBeDefined();
		expect(quoted!.split('\n')[0], 'run node scripts/install-figures.mjs --write').toBe(npmFigures(packReport));
	});

	it('ships nothing but dist/, package.json, README and LICENSE', () => {
		const unexpected = [...paths].filter(path => !/^(dist\/.+\.(js|d\.ts)|package\.json|README\.md|LICENSE)$/.test(path));
		expect(unexpected).toEqual([]);
		expect([...paths].filter(path => /(^|\/)(source|test|scripts|media)\/|\.tsx?$|\.tmp$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
	});
});

describe('package.json', () => {
	it('is published clean: where the project lives, no dev scripts (npm 11 would warn about prepare), no devDependencies', () => {
		expect(packed).toMatchObject({
			name: 'planwatch',
			repository: {type: 'git', url: expect.stringMatching(/^git\+https:\/\//) as string},
			homepage: expect.stringMatching(/^https:\/\//) as string,
			bugs: {url: expect.stringMatching(/^https:\/\//) as string},
			keywords: expect.arrayContaining(['kubectl-plugin', 'kudo', 'kanister']) as string[],
			bin: manifest.bin,
			exports: manifest.exports,
			engines: manifest.engines,
		});
		expect(Object.keys(packed).filter(key => ['scripts', 'devDependencies', 'overrides', 'allowScripts', 'dependencies'].includes(key))).toEqual([]);
	});

	it('is the development one again in the repository after the pack', () => {
		expect(after).toBe(before);
		expect(JSON.parse(after)).toHaveProperty('scripts.prepare');
	});

	it('has no runtime dependencies: the build bundles them all', () => {
		expect(manifest.dependencies ?? {}).toEqual({});
		expect(manifest.peerDependencies ?? {}).toEqual({});
		expect(manifest.optionalDependencies ?? {}).toEqual({});
		expect(manifest.bundleDependencies).toBeUndefined();
		expect(manifest.engines.node).toBe('>=22.19');
	});

	it('nothing in dist/ imports a package: only Node built-ins and its own files', () => {
		const bare = new Set<string>();
		for (const path of paths) {
			if (!path.endsWith('.js')) {
				continue;
			}

			const text = readFileSync(join(repoRoot, path), 'utf8');
			for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|\brequire\s*\(\s*)["']([^"'\s]+)["']/g)) {
				// Minified code has strings such as `from",type:"`: only what could name a module counts.
				if (packageName.test(specifier!) && !isBuiltin(specifier!)) {
					bare.add(`${path}: ${specifier!}`);
				}
			}
		}

		expect([...bare]).toEqual([]);
	});
});
