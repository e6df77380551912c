/**
 * The folders of source/ import one another one way only. Every relative import in source/ is read and each
 * folder → folder edge must be in `allowed`; the README's "Layout" list states the same table, line for line.
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
	sources: ['core', 'model', 'kube', 'state', 'scenarios'],
	render: ['core', 'model', 'state'],
	ui: ['core', 'model', 'state'],
	history: ['core', 'model', 'state'],
	cli: ['core', 'model', 'kube', 'state', 'sources', 'scenarios', 'render', 'ui', 'history'],
	'.': ['core', 'model', 'kube', 'state', 'sources', 'scenarios', 'render', 'ui', 'history', 'cli'],
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

/** The relative specifiers a file imports or re-exports, statically or dynamically. */
export function relativeSpecifiers(text: string): string[] {
	return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.[^"']*)["']/g)].map(m => m[1]!);
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
			const target = normalize(join(dirname(path), specifier));
			const to = folderOf(target);
			const ok =
				to === undefined
					? (allowedOutside[from] ?? []).includes(relative(repoRoot, target))
					: to === from || (allowed[from] ?? []).includes(to);
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

	it("the README's Layout list is the allow-list", () => {
		const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
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
