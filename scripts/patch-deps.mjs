#!/usr/bin/env node
/**
 * Applies patches/<package>+<version>.patch (unified diffs, paths `a/node_modules/…`) to node_modules: run by
 * `npm install`/`npm ci` (the `prepare` script) and by every build, so the bundle never ships an unpatched
 * dependency. Idempotent: a hunk already applied is left alone. Hunks are found by their text, not their line
 * numbers. When the installed version is not the patch's, or a hunk matches neither the old nor the new text,
 * it stops with one line saying which: the patch must then be redone for the new version (or dropped once
 * upstream has the change). `--check` only reports.
 *
 * Exported for test/packaging/dependency-patches.test.ts: parsePatch, applyHunks.
 */
import {readFileSync, readdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Files of a unified diff, each with its hunks as old/new text. */
export function parsePatch(text) {
	const files = [];
	let file;
	let hunk;
	for (const line of text.split('\n')) {
		if (line.startsWith('--- ')) {
			continue;
		}

		if (line.startsWith('+++ ')) {
			file = {path: line.slice(4).replace(/^b\//, '').trim(), hunks: []};
			files.push(file);
			hunk = undefined;
		} else if (line.startsWith('@@')) {
			hunk = {old: [], new: []};
			file.hunks.push(hunk);
		} else if (hunk && line.startsWith(' ')) {
			hunk.old.push(line.slice(1));
			hunk.new.push(line.slice(1));
		} else if (hunk && line.startsWith('-')) {
			hunk.old.push(line.slice(1));
		} else if (hunk && line.startsWith('+')) {
			hunk.new.push(line.slice(1));
		}
	}

	return files.map(f => ({path: f.path, hunks: f.hunks.map(h => ({old: h.old.join('\n'), new: h.new.join('\n')}))}));
}

/**
 * The file's text with every hunk applied (`reverse`: taken back). Throws when a hunk matches neither side.
 * Returns how many hunks were applied now (the others were already).
 */
export function applyHunks(text, hunks, {reverse = false} = {}) {
	let result = text;
	let applied = 0;
	for (const [index, hunk] of hunks.entries()) {
		const from = reverse ? hunk.new : hunk.old;
		const to = reverse ? hunk.old : hunk.new;
		if (result.includes(from) && !(result.includes(to) && to.includes(from))) {
			result = result.replace(from, () => to);
			applied++;
		} else if (!result.includes(to)) {
			throw new Error(`hunk ${index + 1} matches neither the original nor the patched text`);
		}
	}

	return {text: result, applied};
}

function installedVersion(name) {
	return JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

export function patchFiles() {
	const dir = path.join(root, 'patches');
	return readdirSync(dir)
		.filter(name => name.endsWith('.patch'))
		.map(name => {
			const [, pkg, version] = /^(.+)\+([^+]+)\.patch$/.exec(name) ?? [];
			return {name, pkg: pkg.replaceAll('+', '/'), version, files: parsePatch(readFileSync(path.join(dir, name), 'utf8'))};
		});
}

/** Apply (or with `check`, only verify) every patch; returns lines to print. Throws with one line on failure. */
export function patchDependencies({check = false} = {}) {
	const report = [];
	for (const patch of patchFiles()) {
		const version = installedVersion(patch.pkg);
		if (version !== patch.version) {
			throw new Error(`patches/${patch.name} is for ${patch.pkg} ${patch.version}, but ${version} is installed: redo the patch for ` +
				`${version} (or drop it if upstream has the change)`);
		}

		for (const file of patch.files) {
			const full = path.join(root, file.path);
			const before = readFileSync(full, 'utf8');
			let result;
			try {
				result = applyHunks(before, file.hunks);
			} catch (error) {
				// An install patched by an earlier version of the same patch matches neither side either.
				throw new Error(`patches/${patch.name} no longer applies to ${file.path}: ${error.message} (node_modules patched by an ` +
					'earlier version of this patch: reinstall it, `npm ci`)', {cause: error});
			}

			if (result.applied > 0) {
				if (check) {
					throw new Error(`patches/${patch.name} is not applied to ${file.path} (npm install runs scripts/patch-deps.mjs)`);
				}

				writeFileSync(full, result.text);
				report.push(`patched ${file.path} (${result.applied} of ${file.hunks.length} hunks)`);
			}
		}
	}

	return report;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	try {
		for (const line of patchDependencies({check: process.argv.includes('--check')})) {
			console.log(`patch-deps: ${line}`);
		}
	} catch (error) {
		console.error(`patch-deps: ${error.message}`);
		process.exit(1);
	}
}
