/**
 * history.ndjson on disk: `$XDG_STATE_HOME/planwatch/history.ndjson` (default `~/.local/state/planwatch/`).
 * Appends are one `write` of one line on a file opened with O_APPEND, so lines of concurrent planwatch processes
 * never interleave on a local file system. When the file outgrows `compactBytes` it is rewritten with the last
 * runs per key (source/model/run-history.ts) into a temporary file that is renamed over it: readers see the old or
 * the new file, never half of one. History is a convenience: every failure here is swallowed and reported to
 * `onError`, never thrown at the watch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {compactRuns, formatRunRecord, parseRunRecord, type RunRecord} from '../model/run-history.js';

/** Rewrite the file past this size (about 1000 runs of a 20-node plan). */
export const compactBytes = 256 * 1024;
/** A bigger file (written by something else) is read from its last this-many bytes only. */
const maxReadBytes = 4 * compactBytes;

export function historyPath(env: Readonly<Record<string, string | undefined>>, home = os.homedir()): string {
	// XDG Base Directory spec: a relative XDG_STATE_HOME is invalid and must be ignored.
	const state = env['XDG_STATE_HOME'];
	const base = state && path.isAbsolute(state) ? state : path.join(home, '.local', 'state');
	return path.join(base, 'planwatch', 'history.ndjson');
}

function readTail(file: string): string {
	let fd: number;
	try {
		fd = fs.openSync(file, 'r');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return '';
		}

		throw error;
	}

	try {
		const size = fs.fstatSync(fd).size;
		const length = Math.min(size, maxReadBytes);
		const buffer = Buffer.alloc(length);
		fs.readSync(fd, buffer, 0, length, size - length);
		const text = buffer.toString('utf8');
		// Started mid-line: drop the partial first line.
		return size > length ? text.slice(text.indexOf('\n') + 1) : text;
	} finally {
		fs.closeSync(fd);
	}
}

function parseAll(text: string): RunRecord[] {
	const out: RunRecord[] = [];
	for (const line of text.split('\n')) {
		const record = line.trim() === '' ? undefined : parseRunRecord(line);
		if (record) {
			out.push(record);
		}
	}

	return out;
}

export type HistoryFile = {
	readonly path: string;
	/** Every valid record, oldest first (an unreadable file reads as empty). */
	load(): RunRecord[];
	/** Append runs; compacts when the file grew past the limit. */
	append(records: readonly RunRecord[]): void;
};

export function openHistoryFile(file: string, onError: (error: unknown) => void = () => undefined, limit = compactBytes): HistoryFile {
	const load = (): RunRecord[] => {
		try {
			return parseAll(readTail(file));
		} catch (error) {
			onError(error);
			return [];
		}
	};

	const compact = (): void => {
		// Another process may append between our read and the rename: re-read until the file did not change.
		for (let attempt = 0; attempt < 3; attempt++) {
			const before = fs.statSync(file);
			const kept = compactRuns(parseAll(readTail(file)));
			const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
			fs.writeFileSync(temporary, kept.map(r => formatRunRecord(r)).join(''), {mode: 0o600, flag: 'wx'});
			const after = fs.statSync(file);
			if (after.size === before.size && after.mtimeMs === before.mtimeMs) {
				fs.renameSync(temporary, file);
				return;
			}

			fs.rmSync(temporary, {force: true});
		}
	};

	return {
		path: file,
		load,
		append(records) {
			if (records.length === 0) {
				return;
			}

			try {
				fs.mkdirSync(path.dirname(file), {recursive: true, mode: 0o700});
				fs.appendFileSync(file, records.map(r => formatRunRecord(r)).join(''), {mode: 0o600});
				if (fs.statSync(file).size > limit) {
					compact();
				}
			} catch (error) {
				onError(error);
			}
		},
	};
}
