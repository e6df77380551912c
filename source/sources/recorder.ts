/**
 * `--record FILE`: appends every source event, as received, to a recording (format: source/recording/recording.ts).
 * Encoding is synchronous and cheap; writing is not on the UI's path: lines collect in a buffer that one
 * asynchronous append at a time hands to the file, at most `flushMs` later. Only whole lines are written, so
 * `tail -f` and a reader after a crash see complete lines (a crash inside a write can cut the last one, which
 * readers drop). close() flushes and writes the `end` line; a process exit without close() writes what is still
 * buffered synchronously.
 */
import {closeSync, openSync, statSync, writeSync} from 'node:fs';
import {open, type FileHandle} from 'node:fs/promises';
import type {SourceEvent} from '../state/object-source.js';
import {encodeEntry, encodeHeader, type RecordingHeader} from '../recording/recording.js';
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
export async function openRecorder(
	path: string,
	header: Omit<RecordingHeader, 'recording'>,
	options: RecorderOptions = {},
): Promise<Recorder> {
	const name = sanitizeLine(path, 200);
	const handle = await openNewFile(path, name);
	return new FileRecorder(path, name, handle, encodeHeader(header), options);
}

/** FILE opened for appending, if it is new or empty; else the InputError that says why not. */
async function openNewFile(path: string, name: string): Promise<FileHandle> {
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

	try {
		return await open(path, 'a');
	} catch (error) {
		throw new InputError(`--record ${name}: ${openFailure(error)}`);
	}
}

const openReasons: Record<string, string> = {
	ENOENT: 'no such directory',
	EACCES: 'permission denied',
	EPERM: 'permission denied',
	EISDIR: 'is a directory',
	EROFS: 'read-only file system',
	ENOTDIR: 'not a directory (a part of the path is a file)',
	ENOSPC: 'no space left on device',
	EDQUOT: 'disk quota exceeded',
	ELOOP: 'too many symbolic links',
	ENAMETOOLONG: 'file name too long',
	EMFILE: 'too many open files',
	ENXIO: 'no reader on the other end (a FIFO or socket)',
	EIO: 'input/output error',
};

/** Why a file cannot be opened for recording, in a few words (the code itself when it is not a common one). */
export function openFailure(error: unknown): string {
	const code = (error as NodeJS.ErrnoException).code ?? '';
	return openReasons[code] ?? (code === '' ? sanitizeLine((error as Error).message, 120) : `cannot open (${sanitizeLine(code, 20)})`);
}

/** The buffer of encoded lines and the one append at a time that hands it to the file. */
class FileRecorder implements Recorder {
	readonly #path: string;
	readonly #name: string;
	readonly #handle: FileHandle;
	readonly #flushMs: number;
	readonly #onError: ((message: string) => void) | undefined;
	#buffer: string[];
	#buffered: number;
	#writing: Promise<void> | undefined;
	#timer: NodeJS.Timeout | undefined;
	#closed = false;
	#failed: string | undefined;

	constructor(path: string, name: string, handle: FileHandle, headerLine: string, options: RecorderOptions) {
		this.#path = path;
		this.#name = name;
		this.#handle = handle;
		this.#flushMs = options.flushMs ?? defaultFlushMs;
		this.#onError = options.onError;
		this.#buffer = [headerLine];
		this.#buffered = headerLine.length;
		process.once('exit', this.#onExit);
		this.#schedule();
	}

	record(at: number, event: SourceEvent): void {
		if (this.#closed || this.#failed !== undefined) {
			return;
		}

		const line = encodeEntry(at, event);
		this.#buffer.push(line);
		this.#buffered += line.length;
		this.#schedule();
	}

	async close(at: number): Promise<void> {
		if (this.#closed) {
			return;
		}

		this.#closed = true;
		if (this.#failed === undefined) {
			this.#buffer.push(encodeEntry(at, {type: 'end'}));
		}

		if (this.#timer) {
			clearTimeout(this.#timer);
		}

		await this.#flush();
		process.removeListener('exit', this.#onExit);
		await this.#handle.close().catch(() => undefined);
	}

	readonly error = (): string | undefined => this.#failed;

	#fail(error: unknown): void {
		if (this.#failed === undefined) {
			this.#failed = `--record ${this.#name}: ${sanitizeLine((error as Error).message, 200)}`;
			this.#buffer = [];
			this.#buffered = 0;
			this.#onError?.(this.#failed);
		}
	}

	async #flush(): Promise<void> {
		this.#timer = undefined;
		while (this.#buffer.length > 0 && this.#failed === undefined) {
			if (this.#writing) {
				await this.#writing;
				continue;
			}

			const chunk = this.#buffer.join('');
			this.#buffer = [];
			this.#buffered = 0;
			this.#writing = this.#handle.appendFile(chunk, 'utf8').then(
				() => {
					this.#writing = undefined;
				},
				(error: unknown) => {
					this.#writing = undefined;
					this.#fail(error);
				},
			);
			await this.#writing;
		}
	}

	#schedule(): void {
		if (this.#buffered >= flushChars) {
			void this.#flush();
		} else {
			this.#timer ??= setTimeout(() => void this.#flush(), this.#flushMs);
		}
	}

	// Ctrl+C and crashes end in process.exit: hand over what is buffered, whole lines only, synchronously.
	readonly #onExit = (): void => {
		if (this.#failed !== undefined || this.#buffer.length === 0 || this.#writing) {
			return;
		}

		try {
			const fd = openSync(this.#path, 'a');
			writeSync(fd, this.#buffer.join(''));
			closeSync(fd);
			this.#buffer = [];
			this.#buffered = 0;
		} catch {
			// Exiting anyway; the file holds every line written before.
		}
	};
}
