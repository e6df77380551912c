/**
 * Exit codes have one home, source/core/exit-codes.ts: no other file of source/ writes a code as a number or
 * bolts a code onto a plain Error.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {repoRoot} from '../helpers/run-bin.js';

const home = 'source/core/exit-codes.ts';

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
	});
}

/** Code lines (not comments) that spell an exit code as a number: `exitCode: 4`, `exitCode === 3`, `exit(2)`. */
export function numberedExitCodes(text: string): string[] {
	return text
		.split('\n')
		.filter(line => !/^\s*(?:\*|\/\/)/.test(line))
		.filter(line => /\bexit(?:Code)?\s*(?:[:=]|===|!==|\()\s*\d/.test(line) || /Object\.assign\(\s*new \w*Error/.test(line))
		.map(line => line.trim());
}

describe('one home for exit codes', () => {
	it('finds numbered codes (so the check below means something)', () => {
		expect(numberedExitCodes('a\n\treturn {exitCode: 4, message};\nif (exitCode === 3) {}\nprocess.exit(2);\nthrow Object.assign(new Error(m), {code});')).toHaveLength(4);
		expect(numberedExitCodes('return {exitCode: exitCodes.cluster};\nconst exitCode = result.exitCode;')).toEqual([]);
	});

	it('no file of source/ but its home writes an exit code as a number', () => {
		const found = sourceFiles(join(repoRoot, 'source'))
			.map(path => relative(repoRoot, path))
			.filter(path => path !== home)
			.flatMap(path => numberedExitCodes(readFileSync(join(repoRoot, path), 'utf8')).map(line => `${path}: ${line}`));
		expect(found).toEqual([]);
	});
});
