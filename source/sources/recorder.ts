/**
 * `--record FILE`: appends every source event, as received, to a recording (format: source/state/recording.ts).
 * Encoding is synchronous and cheap; writing is not on the UI's path: lines collect in a buffer that one
 * asynchronous append at a time hands to the file, at most `flushMs` later. Only whole lines are written, so
 * `tail -f` and a reader after a crash see complete lines (a crash inside a write can cut the last one, which
 * readers drop). close() flushes and writes the `end` line; a process exit without close() writes what is still
 * buffered synchronously.
 */
import {closeSync, openSync, statSync, writeSync} from 'node:fs';
import {open, type FileHandle} from 'node:fs/promises';
import type {SourceEvent} from '../state/object-source.js';
import {encodeEntry, encodeHeader, type RecordingHeader} from '../state/recording.js';
import {sanitizeLine} from '../model/sanitize.js';
import {InputError} from '../core/errors.js';

export type Recorder = {
	/** Record one event received at `at` (epoch ms). Never throws, never waits. */
	record(at: number, event: SourceEvent): void;
	/** Flush, write the `end` line and close. Idempotent. */
	close(at: number): Promise<void>;
	/** Set when a write failed (disk full…): recording stopped, the watch goes on. */
	readonly error: () => string | undefined;
};

export type RecorderOptions = {
	readonly flushMs?: number;
	/** Called once if writing fails. */
	readonly onError?: (message: string) => void;
};

const defaultFlushMs = 100;
/** Past this many buffered characters a flush starts at once. */
const flushChars = 1024 * 1024;

/**
 * Open FILE for a new recording and write its header. An existing non-empty file is refused rather than
 * overwritten or mixed with another session (InputError, exit 2).
 */
export async function openRecorder(path: string, header: Omit<RecordingHeader, 'recording'>, options: RecorderOptions = {}): Promise<Recorder> {
	const name = sanitizeLine(path, 200);
	try {
		const info = statSync(path, {throwIfNoEntry: false});
		if (info?.isFile() && info.size > 0) {
			throw new InputError(`--record ${name}: the file exists; choose a new file or remove it`);
		}

		if (info?.isDirectory()) {
			throw new InputError(`--record ${name}: is a directory`);
		}
	} catch (error) {
		if (error instanceof InputError) {
			throw error;
		}
	}

	let handle: FileHandle;
	try {
		handle = await open(path, 'a');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const reason = code === 'ENOENT' ? 'no such directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : 'cannot open';
		throw new InputError(`--record ${name}: ${reason}`);
	}

	const flushMs = options.flushMs ?? defaultFlushMs;
	let buffer: string[] = [encodeHeader(header)];
	let buffered = buffer[0]!.length;
	let writing: Promise<void> | undefined;
	let timer: NodeJS.Timeout | undefined;
	let closed = false;
	let failed: string | undefined;

	const fail = (error: unknown): void => {
		if (failed === undefined) {
			failed = `--record ${name}: ${sanitizeLine((error as Error).message, 200)}`;
			buffer = [];
			buffered = 0;
			options.onError?.(failed);
		}
	};

	const flush = async (): Promise<void> => {
		timer = undefined;
		while (buffer.length > 0 && failed === undefined) {
			if (writing) {
				await writing;
				continue;
			}

			const chunk = buffer.join('');
			buffer = [];
			buffered = 0;
			writing = handle.appendFile(chunk, 'utf8').then(
				() => {
					writing = undefined;
				},
				(error: unknown) => {
					writing = undefined;
					fail(error);
				},
			);
			await writing;
		}
	};

	const schedule = (): void => {
		if (buffered >= flushChars) {
			void flush();
		} else {
			timer ??= setTimeout(() => void flush(), flushMs);
		}
	};

	// Ctrl+C and crashes end in process.exit: hand over what is buffered, whole lines only, synchronously.
	const onExit = (): void => {
		if (failed !== undefined || buffer.length === 0 || writing) {
			return;
		}

		try {
			const fd = openSync(path, 'a');
			writeSync(fd, buffer.join(''));
			closeSync(fd);
			buffer = [];
			buffered = 0;
		} catch {
			// Exiting anyway; the file holds every line written before.
		}
	};

	process.once('exit', onExit);
	schedule();

	return {
		record(at, event) {
			if (closed || failed !== undefined) {
				return;
			}

			const line = encodeEntry(at, event);
			buffer.push(line);
			buffered += line.length;
			schedule();
		},
		async close(at) {
			if (closed) {
				return;
			}

			closed = true;
			if (failed === undefined) {
				buffer.push(encodeEntry(at, {type: 'end'}));
			}

			if (timer) {
				clearTimeout(timer);
			}

			await flush();
			process.removeListener('exit', onExit);
			await handle.close().catch(() => undefined);
		},
		error: () => failed,
	};
}
