/**
 * The patched Ink frame write (patches/ink+8.0.0.patch, build/ink.js): an interactive frame and the
 * synchronized-update marks around it (`ESC[?2026h` … `ESC[?2026l`) reach the terminal in one write: the stream is
 * corked around the three, so a TTY stream hands them to `_writev` (one writev(2)), not three write(2) calls that
 * wake the terminal's reader three times and can be read half.
 */
import {Writable} from 'node:stream';
import {render, Text} from 'ink';
import {afterEach, expect, test} from 'vitest';
import {deadline} from '../helpers/deadline.js';
import {FakeStdin, settle} from '../helpers/ui.js';

const bsu = '\u001B[?2026h';
const esu = '\u001B[?2026l';

/** A terminal-like stdout whose every hand-over to the OS (`_write`, or `_writev` for corked chunks) is one entry. */
class TtyStdout extends Writable {
	readonly isTTY = true;
	readonly columns = 40;
	readonly rows = 10;
	readonly writes: string[] = [];

	constructor() {
		super({decodeStrings: false});
	}

	override _write(chunk: unknown, _encoding: BufferEncoding, callback: () => void): void {
		this.writes.push(String(chunk));
		callback();
	}

	override _writev(chunks: Array<{chunk: unknown}>, callback: () => void): void {
		this.writes.push(chunks.map(({chunk}) => String(chunk)).join(''));
		callback();
	}
}

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) {
		cleanup();
	}
});

test('each frame and its synchronized-update marks are one write', async () => {
	const stdout = new TtyStdout();
	const instance = render(<Text>count 0</Text>, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
		interactive: true,
		incrementalRendering: true,
		patchConsole: false,
		exitOnCtrlC: false,
	});
	cleanups.push(() => {
		instance.unmount();
	});
	for (let i = 1; i <= 5; i++) {
		const before = stdout.writes.length;
		instance.rerender(<Text>count {i}</Text>);
		// A budget of this process's CPU time (test/helpers/deadline.ts), only to bound a hang. The frame rewrites
		// only the changed cell: the new digit.
		const budget = deadline(3000);
		while (!stdout.writes.slice(before).some(write => write.includes(String(i)))) {
			expect(budget.expired(), `frame ${i}`).toBe(false);
			await settle();
		}
	}

	const frames = stdout.writes.filter(write => write.includes(bsu) || write.includes(esu));
	expect(frames.length).toBeGreaterThanOrEqual(5);
	for (const write of frames) {
		expect(write.startsWith(bsu) && write.endsWith(esu), JSON.stringify(write)).toBe(true);
		// With something between the marks: a frame, not a mark alone.
		expect(write.length).toBeGreaterThan(bsu.length + esu.length);
	}
});
