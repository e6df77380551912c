import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname} from 'node:path';
import {expect} from 'vitest';

/**
 * Compare text with a reviewed golden file. `UPDATE_GOLDEN=1` (re)writes it instead; a missing golden file is a
 * failure, never silently created, so every golden has been read by a person before it is trusted.
 */
export function expectGolden(path: string, actual: string): void {
	if (process.env['UPDATE_GOLDEN'] === '1') {
		mkdirSync(dirname(path), {recursive: true});
		writeFileSync(path, actual);
		return;
	}

	if (!existsSync(path)) {
		throw new Error(`missing golden file ${path}; review the output below and run with UPDATE_GOLDEN=1:\n${actual}`);
	}

	expect(actual).toBe(readFileSync(path, 'utf8'));
}
