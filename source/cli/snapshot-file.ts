/**
 * `s` in the TUI: the selected object as plain text and JSON, side by side in the working directory, as
 * `planwatch-<namespace>-<name>-<UTC time>.txt|.json`. Names from the cluster become safe file names; an
 * existing file is never overwritten (a `-2`, `-3`… is added instead).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Letters, digits, `.`, `_` and `-` only; no leading dot; at most 120 characters. */
export function safeFileName(text: string): string {
	const safe = text
		.normalize('NFKC')
		.replaceAll(/[^\w.-]+/g, '_')
		.replaceAll(/^[.]+/g, '_')
		.slice(0, 120);
	return safe === '' ? '_' : safe;
}

/** `20261201T003512Z` */
export function fileTime(ms: number): string {
	return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(/[-:]/g, '');
}

export function snapshotBaseName(object: {readonly namespace: string; readonly name: string}, at: number): string {
	return `planwatch-${safeFileName(`${object.namespace}-${object.name}`)}-${fileTime(at)}`;
}

/** Writes both files (never over an existing one); returns their paths. Throws on a failed write. */
export function saveSnapshot(dir: string, base: string, plain: string, json: string): {readonly text: string; readonly json: string} {
	for (let n = 1; n < 100; n++) {
		const stem = path.join(dir, n === 1 ? base : `${base}-${n}`);
		const text = `${stem}.txt`;
		const jsonPath = `${stem}.json`;
		try {
			fs.writeFileSync(text, plain, {flag: 'wx'});
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
				continue;
			}

			throw error;
		}

		try {
			fs.writeFileSync(jsonPath, json, {flag: 'wx'});
		} catch (error) {
			fs.rmSync(text, {force: true});
			if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
				continue;
			}

			throw error;
		}

		return {text, json: jsonPath};
	}

	throw new Error(`too many snapshots named ${base} already`);
}
