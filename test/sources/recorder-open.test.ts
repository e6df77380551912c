/** `--record` into a place it cannot write says why (it said only "cannot open"). */
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {expect, it} from 'vitest';
import {openFailure, openRecorder} from '../../source/sources/recorder.js';

const header = {version: '0', source: 'demo', context: 'demo', namespace: 'n', targets: [], waitFor: [], start: '2026-01-01T00:00:00.000Z'} as const;

async function refusal(file: string): Promise<string> {
	try {
		const recorder = await openRecorder(file, header);
		await recorder.close(0);
	} catch (error) {
		return (error as Error).message;
	}

	throw new Error('expected a refusal');
}

it('names ENOTDIR and EACCES from the file system', async () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'planwatch-record-open-'));
	const file = path.join(dir, 'plain-file');
	writeFileSync(file, '');
	expect(await refusal(path.join(file, 'x.ndjson'))).toBe(`--record ${file}/x.ndjson: not a directory (a part of the path is a file)`);
	// /sys refuses new files even to root.
	expect(await refusal('/sys/planwatch-x.ndjson')).toBe('--record /sys/planwatch-x.ndjson: permission denied');
});

it('names a read-only file system and every other code', () => {
	const failure = (code: string) => openFailure(Object.assign(new Error(`${code}: something`), {code}));
	expect(failure('EROFS')).toBe('read-only file system');
	expect(failure('ENOSPC')).toBe('no space left on device');
	expect(failure('EWHATEVER')).toBe('cannot open (EWHATEVER)');
});
