/**
 * The folders of source/ import one another one way only. Every relative import in source/ is read and each
 * folder → folder edge must be in `allowed`; docs/development.md's "Layout" list states the same table, line for line.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, normalize, relative, sep} from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/run-bin.js';

/** Folder → the folders its files may import. `.` is the entry files at the top of source/ (bin, cli, index). */
const allowed: Readonly<Record<string, readonly string[]>> = {
	core: [],
	model: ['core'],
	scenarios: ['core', 'model'],
	kube: ['core', 'model'],
	state: ['core', 'model'],
	recording: ['core', 'model', 'state'],
	sources: ['core', 'model', 'kube', 'state', 'recording', 'scenarios'],
	render: ['core', 'model', 'state'],
	ui: ['core', 'model', 'state', 'recording'],
	history: ['core', 'model', 'state'],
	cli: ['core', 'model', 'kube', 'state', 'recording', 'sources', 'scenarios', 'render', 'ui', 'history'],
	'.': ['core', 'model', 'kube', 'state', 'recording', 'sources', 'scenarios', 'render', 'ui', 'history', 'cli'],
};

/** Files outside source/ that source/ may import (the version comes from package.json). */
const allowedOutside: Readonly<Record<string, readonly string[]>> = {
	cli: ['package.json'],
};

const sourceRoot = join(repoRoot, 'source');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
	});
}

/**
 * What a file loads from: static imports and re-exports, side-effect imports, `import()` with a string or a
 * template literal, and calls of a `require` made with `createRequire` (node:module; under any name, or called at
 * once), with a string or a template. A template with `${…}` yields its directory, its text up to the last `/`
 * before the first `${` (`../state/${name}.js` → `../state/`), which still names the folder; a template with no
 * directory there, or an argument that is no literal at all, yields `?` and the argument, which no allow-list
 * admits: the folder it reaches cannot be read.
 */
export function loadedSpecifiers(text: string): string[] {
	const found = new Set<string>();
	for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^"']*)["']/g)) {
		found.add(m[1]!);
	}

	const requireNames = ['require', ...[...text.matchAll(/([\w$]+)\s*=\s*(?:[\w$]+\.)?createRequire\s*\(/g)].map(m => m[1]!)];
	const names = requireNames.map(name => name.replaceAll('$', String.raw`\$`)).join('|');
	const call = new RegExp(String.raw`(?:\bimport|(?<![\w$.])(?:${names})|\bcreateRequire\s*\([^()]*\))\s*\(\s*([^)]*?)\s*\)`, 'g');
	for (const m of text.matchAll(call)) {
		const argument = m[1]!;
		const quoted = /^(["'])([^"']*)\1$/.exec(argument);
		const template = /^`([^`]*)`$/.exec(argument);
		if (quoted) {
			found.add(quoted[2]!);
		} else if (template && !template[1]!.includes('${')) {
			found.add(template[1]!);
		} else if (template && /^[^$]*\//.test(template[1]!)) {
			const prefix = template[1]!.split('${')[0]!;
			found.add(prefix.slice(0, prefix.lastIndexOf('/') + 1));
		} else if (argument !== '') {
			found.add(`?${argument}`);
		}
	}

	return [...found];
}

/** The relative specifiers a file loads (see loadedSpecifiers), with those whose target cannot be read (`?…`). */
export function relativeSpecifiers(text: string): string[] {
	return loadedSpecifiers(text).filter(specifier => specifier.startsWith('.') || specifier.startsWith('?'));
}

/** The folder a specifier reaches from `path`: a template's directory (ending in `/`) must lie inside one. */
function targetFolder(path: string, specifier: string): {to: string | undefined; target: string} | 'unknown' {
	if (specifier.startsWith('?')) {
		return 'unknown';
	}

	const target = normalize(join(dirname(path), specifier));
	if (!specifier.endsWith('/')) {
		return {to: folderOf(target), target};
	}

	const inside = relative(sourceRoot, target);
	return inside === '' || inside.startsWith('..') ? 'unknown' : {to: inside.split(sep)[0], target};
}

/** The folder of source/ a path belongs to (`.` for the entry files), or undefined outside source/. */
export function folderOf(path: string): string | undefined {
	const inside = relative(sourceRoot, path);
	if (inside.startsWith('..')) {
		return undefined;
	}

	const parts = inside.split(sep);
	return parts.length === 1 ? '.' : parts[0];
}

/** Every folder → folder (or folder → outside file) import edge not in the allow-lists, as `file → specifier`. */
export function forbiddenEdges(files: ReadonlyArray<{readonly path: string; readonly text: string}>): string[] {
	const bad: string[] = [];
	for (const {path, text} of files) {
		const from = folderOf(path)!;
		for (const specifier of relativeSpecifiers(text)) {
			const reached = targetFolder(path, specifier);
			const ok =
				reached !== 'unknown' &&
				(reached.to === undefined
					? (allowedOutside[from] ?? []).includes(relative(repoRoot, reached.target))
					: reached.to === from || (allowed[from] ?? []).includes(reached.to));
			if (!ok) {
				bad.push(`${relative(repoRoot, path)} → ${specifier}`);
			}
		}
	}

	return bad;
}

describe('layers', () => {
	const files = sourceFiles(sourceRoot).map(path => ({path, text: readFileSync(path, 'utf8')}));

	it('finds the imports it checks', () => {
		// A scan that finds nothing would pass vacuously.
		expect(files.length).toBeGreaterThan(50);
		expect(files.flatMap(f => relativeSpecifiers(f.text)).length).toBeGreaterThan(200);
	});

	it('every folder of source/ has a row in the allow-list', () => {
		const folders = new Set(files.map(f => folderOf(f.path)!));
		expect([...folders].filter(f => !(f in allowed))).toEqual([]);
	});

	it('no import crosses folders against the allow-list', () => {
		expect(forbiddenEdges(files)).toEqual([]);
	});

	it('a forbidden edge is caught: model importing state, kube importing sources', () => {
		const model = join(sourceRoot, 'model', 'x.ts');
		const kube = join(sourceRoot, 'kube', 'y.ts');
		expect(
			forbiddenEdges([
				{path: model, text: "import type {Store} from '../state/store.js';\nimport {a} from './status.js';"},
				{path: kube, text: "export {b} from '../sources/cluster-source.js';\nconst c = await import('../core/clock.js');"},
			]),
		).toEqual(['source/model/x.ts → ../state/store.js', 'source/kube/y.ts → ../sources/cluster-source.js']);
	});

	it('a template-literal import() and createRequire are caught too, and a specifier that is no literal', () => {
		const ui = join(sourceRoot, 'ui', 'z.ts');
		const model = join(sourceRoot, 'model', 'w.ts');
		expect(
			forbiddenEdges([
				{
					path: ui,
					text: [
						'const a = await import(`../kube/${name}.js`);',
						'const b = await import(`../sources/file-source.js`);',
						'const c = await import(`./${name}.js`);',
						'const d = await import(`../${folder}/x.js`);',
						'const e = await import(specifier);',
						'const f = await import(`../model/${name}.js`);',
					].join('\n'),
				},
				{
					path: model,
					text: [
						"import {createRequire} from 'node:module';",
						'const require = createRequire(import.meta.url);',
						"const g = require('../state/store.js');",
						'const load = module.createRequire(import.meta.url);',
						'const h = load(`../cli/${x}`);',
						"const i = createRequire(import.meta.url)('../ui/app.js');",
						"const j = require('./status.js');",
						"const k = require('node:fs');",
					].join('\n'),
				},
			]),
		).toEqual([
			'source/ui/z.ts → ../kube/',
			'source/ui/z.ts → ../sources/file-source.js',
			'source/ui/z.ts → ../',
			'source/ui/z.ts → ?specifier',
			'source/model/w.ts → ../state/store.js',
			'source/model/w.ts → ../cli/',
			'source/model/w.ts → ../ui/app.js',
		]);
	});

	it('the allow-list has no cycle', () => {
		const visiting = new Set<string>();
		const done = new Set<string>();
		const visit = (folder: string): void => {
			expect(visiting.has(folder), `cycle through ${folder}`).toBe(false);
			if (done.has(folder)) {
				return;
			}

			visiting.add(folder);
			for (const next of allowed[folder] ?? []) {
				visit(next);
			}

			visiting.delete(folder);
			done.add(folder);
		};

		for (const folder of Object.keys(allowed)) {
			visit(folder);
		}
	});

	it("docs/development.md's Layout list is the allow-list", () => {
		const readme = readFileSync(join(repoRoot, 'docs', 'development.md'), 'utf8');
		// The list items of the Layout paragraph, each joined with its wrapped continuation lines.
		const section = readme.slice(readme.indexOf('Layout (')).split('\n\n')[0]!.replaceAll(/\n {2}/g, ' ');
		const rows: Record<string, string[]> = {};
		for (const m of section.matchAll(/^- `source\/([\w.]*)` (?:\([^)]*\))?: (.*)$/gm)) {
			const imports = m[2]!.trim() === 'nothing' ? [] : [...m[2]!.matchAll(/`([\w.]+)`/g)].map(x => x[1]!);
			rows[m[1] === '' ? '.' : m[1]!] = imports;
		}

		expect(rows).toEqual(Object.fromEntries(Object.entries(allowed).map(([k, v]) => [k, [...v]])));
	});
});
