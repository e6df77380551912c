/**
 * The last lines of a container's log that planwatch keeps: capped in lines and in bytes, each line sanitized
 * (a log is cluster text like any other) and cut to a width. Immutable: append returns a new tail.
 */
import {sanitizeLine} from './sanitize.js';

export const logTailLimits = {
	/** Lines kept per container log. */
	lines: 20,
	/** Bytes (UTF-8 of the sanitized lines) kept per container log. */
	bytes: 8 * 1024,
	/** Code points kept of one line. */
	lineChars: 400,
	/** Bytes asked of the apiserver per request (`limitBytes`), and the most read of one answer. */
	requestBytes: 64 * 1024,
} as const;

export type LogTail = {
	readonly lines: readonly string[];
	readonly bytes: number;
	/** Lines seen and no longer kept (older than the cap). */
	readonly dropped: number;
	/** The last line so far when the chunk did not end with a newline (not yet in `lines`). */
	readonly partial: string;
};

export const emptyLogTail: LogTail = {lines: [], bytes: 0, dropped: 0, partial: ''};

function byteLength(line: string): number {
	return Buffer.byteLength(line, 'utf8');
}

/** `tail` with the text of `chunk` appended (any cut of a stream: lines complete when their newline comes). */
export function appendLog(tail: LogTail, chunk: string, limits: {readonly lines: number; readonly bytes: number} = logTailLimits): LogTail {
	const parts = (tail.partial + chunk).split(/\r?\n/);
	// An unfinished line waits for its end, but never grows past what one line may keep.
	const partial = (parts.pop() ?? '').slice(-logTailLimits.lineChars * 4);
	const lines = [...tail.lines];
	let {bytes, dropped} = tail;
	for (const part of parts) {
		const line = sanitizeLine(part, logTailLimits.lineChars);
		lines.push(line);
		bytes += byteLength(line);
	}

	while (lines.length > 0 && (lines.length > limits.lines || bytes > limits.bytes)) {
		bytes -= byteLength(lines.shift()!);
		dropped++;
	}

	return {lines, bytes, dropped, partial};
}

/** The lines to show: the kept ones and an unfinished last line. */
export function shownLogLines(tail: LogTail): string[] {
	return tail.partial ? [...tail.lines, sanitizeLine(tail.partial, logTailLimits.lineChars)] : [...tail.lines];
}
