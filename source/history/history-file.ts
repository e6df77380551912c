/**
 * history.ndjson on disk: `$XDG_STATE_HOME/planwatch/history.ndjson` (default `~/.local/state/planwatch/`).
 * Appends are one `write` of one line on a file opened with O_APPEND, so lines of concurrent planwatch processes
 * never interleave on a local file system; a short lock file around "is this run filed yet? append it" files a
 * run that several processes saw end (the same run id) once. When the file outgrows `compactBytes` it is rewritten
 * with the last runs per key (source/model/run-history.ts), and every line of a newer format kept as it is, into a
 * temporary file that is renamed over it: readers see the old or the new file, never half of one.
 *
 * The file is opened without following a symbolic link (O_NOFOLLOW) and without blocking (O_NONBLOCK: a FIFO
 * would hang the run), and used only when it is a regular file. Otherwise the run goes on without history and
 * `onError` is told once. History is a convenience: every failure here is swallowed and reported to `onError`,
 * never thrown at the watch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {compactRuns, formatRunRecord, historyKey, isNewerRecordLine, parseRunRecord, type RunRecord} from '../model/run-history.js';

/** Rewrite the file past this size (about 1000 runs of a 20-node plan). */
export const compactBytes = 256 * 1024;
/** A bigger file (written by something else) is read from its last this-many bytes only. */
const maxReadBytes = 4 * compactBytes;
/** How long an append waits for another process's lock, and when a lock is left over from a crash. */
const lockWaitMs = 500;
const staleLockMs = 10_000;

export function historyPath(env: Readonly<Record<string, string | undefined>>, home = os.homedir()): string {
	// XDG Base Directory spec: a relative XDG_STATE_HOME is invalid and must be ignored.
	const state = env['XDG_STATE_HOME'];
	const base = state && path.isAbsolute(state) ? state : path.join(home, '.local', 'state');
	return path.join(base, 'planwatch', 'history.ndjson');
}

/** The history file is not one planwatch uses: the run goes on without history. */
export class HistoryRefused extends Error {
	constructor(file: string, reason: string) {
		super(`history file ${file}: ${reason}: running without history`);
		this.name = 'HistoryRefused';
	}
}

// O_NOFOLLOW and O_NONBLOCK are 0 where the platform has none (Windows): opening is then as before.
const {O_NOFOLLOW = 0, O_NONBLOCK = 0} = fs.constants;

/** An fd of `file`, a regular file reached without following a final symbolic link; undefined when missing. */
function openRegular(file: string, flags: number): number | undefined {
	let fd: number;
	try {
		fd = fs.openSync(file, flags | O_NOFOLLOW | O_NONBLOCK, 0o600);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') {
			return undefined;
		}

		// Linux says ELOOP for a symbolic link under O_NOFOLLOW; the BSDs and macOS EMLINK or EFTYPE.
		if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') {
			throw new HistoryRefused(file, 'is a symbolic link, not followed');
		}

		// A FIFO without a reader, opened to write without blocking.
		if (code === 'ENXIO') {
			throw new HistoryRefused(file, 'is not a regular file');
		}

		throw error;
	}

	if (!fs.fstatSync(fd).isFile()) {
		fs.closeSync(fd);
		throw new HistoryRefused(file, 'is not a regular file');
	}

	return fd;
}

function readTail(file: string): string {
	const fd = openRegular(file, fs.constants.O_RDONLY);
	if (fd === undefined) {
		return '';
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

function lines(text: string): string[] {
	return text.split('\n').filter(line => line.trim() !== '');
}

function parseAll(text: string): RunRecord[] {
	const out: RunRecord[] = [];
	for (const line of lines(text)) {
		const record = parseRunRecord(line);
		if (record) {
			out.push(record);
		}
	}

	return out;
}

/** Synchronous sleep for the lock's retries (appends are synchronous; a wait is a few milliseconds). */
function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Run `body` holding `file.lock` (created exclusively); without the lock after `lockWaitMs`, run it anyway. */
function withLock<T>(file: string, body: () => T): T {
	const lock = `${file}.lock`;
	const deadline = Date.now() + lockWaitMs;
	let held = false;
	while (!held) {
		try {
			fs.closeSync(fs.openSync(lock, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | O_NOFOLLOW, 0o600));
			held = true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				break;
			}

			// A lock a crashed process left behind.
			const info = fs.lstatSync(lock, {throwIfNoEntry: false});
			if (info && Date.now() - info.mtimeMs > staleLockMs) {
				fs.rmSync(lock, {force: true});
				continue;
			}

			if (Date.now() > deadline) {
				break;
			}

			sleepSync(5);
		}
	}

	try {
		return body();
	} finally {
		if (held) {
			fs.rmSync(lock, {force: true});
		}
	}
}

export type HistoryFile = {
	readonly path: string;
	/** Every valid record, oldest first (an unreadable file reads as empty). */
	load(): RunRecord[];
	/** Append runs not filed yet; compacts when the file grew past the limit. */
	append(records: readonly RunRecord[]): void;
};

export function openHistoryFile(file: string, onError: (error: unknown) => void = () => undefined, limit = compactBytes): HistoryFile {
	// Refused once (a symbolic link, a FIFO): said once, then no history for the rest of the run.
	let refused = false;
	const failed = (error: unknown): void => {
		if (refused) {
			return;
		}

		if (error instanceof HistoryRefused) {
			refused = true;
		}

		onError(error);
	};

	const load = (): RunRecord[] => {
		if (refused) {
			return [];
		}

		try {
			return parseAll(readTail(file));
		} catch (error) {
			failed(error);
			return [];
		}
	};

	const compact = (): void => {
		// Another process may append between our read and the rename: re-read until the file did not change.
		for (let attempt = 0; attempt < 3; attempt++) {
			const before = fs.lstatSync(file);
			const text = readTail(file);
			// Lines of a newer planwatch are kept as they are, in place: that version reads them, this one cannot.
			const newer = lines(text).filter(line => isNewerRecordLine(line));
			const kept = compactRuns(parseAll(text));
			const rewritten = [...newer.map(line => `${line}\n`), ...kept.map(r => formatRunRecord(r))].join('');
			if (rewritten.length >= before.size) {
				// Nothing to gain (the newer lines alone pass the limit).
				return;
			}

			const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
			fs.writeFileSync(temporary, rewritten, {mode: 0o600, flag: 'wx'});
			const after = fs.lstatSync(file);
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
			if (records.length === 0 || refused) {
				return;
			}

			try {
				fs.mkdirSync(path.dirname(file), {recursive: true, mode: 0o700});
				withLock(file, () => {
					// Another planwatch that watched the same run may have filed it since this one loaded the file.
					const filed = new Set(parseAll(readTail(file)).map(r => `${historyKey(r)}\n${r.run}`));
					const fresh = records.filter(r => !filed.has(`${historyKey(r)}\n${r.run}`));
					if (fresh.length === 0) {
						return;
					}

					const fd = openRegular(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT)!;
					try {
						fs.writeSync(fd, fresh.map(r => formatRunRecord(r)).join(''));
						if (fs.fstatSync(fd).size > limit) {
							compact();
						}
					} finally {
						fs.closeSync(fd);
					}
				});
			} catch (error) {
				failed(error);
			}
		},
	};
}
