/**
 * Render Ink trees for tests, in the style of ink-testing-library (debug mode: every render is written as a full
 * frame; `exitOnCtrlC` and `patchConsole` off), with our own fake streams: ink-testing-library's stdout has no
 * `rows`, so Ink would ask the real terminal (tput…) for the height and tests would depend on the machine.
 *
 * No sleeps: `press` yields to React after each key, and `waitForFrame` polls with a deadline whose error
 * prints the last frame.
 */
import {EventEmitter} from 'node:events';
import {stripVTControlCharacters} from 'node:util';
import {render as inkRender, type Instance} from 'ink';
import type {ReactNode} from 'react';
import {deadline} from './deadline.js';

export const ARROW_UP = '\u001B[A';
export const ARROW_DOWN = '\u001B[B';
export const ARROW_RIGHT = '\u001B[C';
export const ARROW_LEFT = '\u001B[D';
export const PAGE_UP = '\u001B[5~';
export const PAGE_DOWN = '\u001B[6~';
export const HOME = '\u001B[H';
export const END = '\u001B[F';
export const ENTER = '\r';
export const ESC = '\u001B';
export const SPACE = ' ';
export const BACKSPACE = '\u007F';
export const CTRL_C = '\u0003';

/** A stdout with a size, resizable like a terminal. Frames are kept raw (with SGR codes). */
export class FakeStdout extends EventEmitter {
	readonly frames: string[] = [];
	isTTY = false;

	constructor(
		public columns: number,
		public rows: number,
	) {
		super();
	}

	write = (frame: string): boolean => {
		this.frames.push(frame);
		return true;
	};

	resize(columns: number, rows: number): void {
		this.columns = columns;
		this.rows = rows;
		this.emit('resize');
	}
}

/** A TTY-like stdin that supports raw mode, so `useInput` listens. */
export class FakeStdin extends EventEmitter {
	isTTY = true;
	#data: string | null = null;

	write = (data: string): void => {
		this.#data = data;
		this.emit('readable');
		this.emit('data', data);
	};

	read = (): string | null => {
		const data = this.#data;
		this.#data = null;
		return data;
	};

	setEncoding(): void {}
	setRawMode(): void {}
	resume(): void {}
	pause(): void {}
	ref(): void {}
	unref(): void {}
}

/** Let React 19's scheduler and Ink flush: setImmediate, then a zero timeout. */
export async function settle(): Promise<void> {
	await new Promise<void>(resolve => {
		setImmediate(resolve);
	});
	await new Promise<void>(resolve => {
		setTimeout(resolve, 0);
	});
}

export type RenderOptions = {readonly columns?: number; readonly rows?: number; readonly stdinIsTTY?: boolean};

export type Rendered = {
	readonly stdout: FakeStdout;
	readonly stdin: FakeStdin;
	readonly instance: Instance;
	/** The last frame without escape sequences. */
	lastFrame(): string;
	/** The last frame as written, SGR codes included. */
	lastRawFrame(): string;
	/**
	 * Type keys one at a time, letting the app render after each. A lone ESC reaches the app only after Ink's
	 * escape timeout (it could start a sequence), so it must be the last key of a call: wait for its effect with
	 * `waitForFrame` before pressing more.
	 */
	press(...keys: string[]): Promise<void>;
	/** Wait until the frame satisfies `predicate`; fails after `timeoutMs` showing the last frame. */
	waitForFrame(predicate: (frame: string) => boolean, options?: {readonly timeoutMs?: number; readonly what?: string}): Promise<string>;
	resize(columns: number, rows: number): Promise<void>;
	unmount(): void;
};

const mounted = new Set<Instance>();

export function renderUi(tree: ReactNode, options: RenderOptions = {}): Rendered {
	const stdout = new FakeStdout(options.columns ?? 100, options.rows ?? 30);
	const stdin = new FakeStdin();
	stdin.isTTY = options.stdinIsTTY ?? true;
	const instance = inkRender(tree, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stderr: new FakeStdout(100, 30) as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		debug: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});
	mounted.add(instance);
	const lastRawFrame = () => stdout.frames.at(-1) ?? '';
	const lastFrame = () => stripVTControlCharacters(lastRawFrame());
	return {
		stdout,
		stdin,
		instance,
		lastFrame,
		lastRawFrame,
		async press(...keys) {
			if (keys.slice(0, -1).includes(ESC)) {
				throw new Error('press(): ESC must be the last key of a call; wait for its effect before pressing more');
			}

			await settle();
			for (const key of keys) {
				stdin.write(key);
				await settle();
			}
		},
		async waitForFrame(predicate, {timeoutMs = 3000, what = 'the expected frame'} = {}) {
			// A budget of this process's CPU time (test/helpers/deadline.ts): a loaded machine does not trip it.
			const budget = deadline(timeoutMs);
			for (;;) {
				const frame = lastFrame();
				if (predicate(frame)) {
					return frame;
				}

				if (budget.expired()) {
					throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}. Last frame:\n${frame}`);
				}

				await settle();
			}
		},
		async resize(columns, rows) {
			stdout.resize(columns, rows);
			await settle();
		},
		unmount() {
			instance.unmount();
			instance.cleanup();
			mounted.delete(instance);
		},
	};
}

/** Unmount everything still mounted (for afterEach). */
export function cleanupUi(): void {
	for (const instance of mounted) {
		instance.unmount();
		instance.cleanup();
	}

	mounted.clear();
}
