/**
 * The built CLI in a pseudo-terminal (node-pty), its output fed into a headless xterm so a test reads the
 * screen a user would see (buffer lines) and sends keys. Raw output is kept too (escape-sequence checks).
 * Every wait has a deadline whose error prints the screen; the defaults (2 minutes) only bound a hang: the
 * process under test runs on a machine that may be busy.
 */
import xterm from '@xterm/headless';
import pty from 'node-pty';
import {assertBuilt, cliEnv, cliPath, repoRoot} from './cli.js';

const {Terminal} = xterm;

export type PtyExit = {readonly exitCode: number; readonly signal: number | undefined};

export type PtyCli = {
	readonly cols: number;
	readonly rows: number;
	/** The visible screen, one string per row (trailing blanks trimmed). */
	screen(): string[];
	/** The screen as text (rows joined by newlines), for matching and for failure messages. */
	text(): string;
	/** The screen's logical lines: rows the terminal wrapped are joined again (a long stderr line). */
	logicalLines(): string[];
	/** Everything the process wrote, escape sequences included. */
	raw(): string;
	/** The most the screen ever scrolled (rows pushed into scrollback): 0 while every frame fits the height. */
	maxScrolled(): number;
	/** Titles the process set (OSC 0/2): a drawn object string must never set one. */
	titles(): string[];
	/** Send keys (a string: `+`, `q`, `\r`, `\u001b` …). */
	press(keys: string): void;
	/** Wait until `condition(screenText)` holds. */
	waitForScreen(condition: (text: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
	/** Wait until the screen contains `needle` (string or regex). */
	waitForText(needle: string | RegExp, timeoutMs?: number): Promise<void>;
	/** Wait until nothing was written for `quietMs` (a key's effect is drawn), at most `timeoutMs`. */
	waitForQuiet(quietMs?: number, timeoutMs?: number): Promise<void>;
	readonly exited: Promise<PtyExit>;
	exit(): PtyExit | undefined;
	exitedAt(): number | undefined;
	waitForExit(timeoutMs?: number): Promise<PtyExit>;
	kill(signal?: string): void;
	describe(): string;
};

const running = new Set<pty.IPty>();

export function startPtyCli(args: readonly string[], options: {cols?: number; rows?: number; env?: Record<string, string | undefined>; command?: readonly string[]} = {}): PtyCli {
	if (!options.command) {
		assertBuilt();
	}

	const cols = options.cols ?? 120;
	const rows = options.rows ?? 40;
	const terminal = new Terminal({cols, rows, allowProposedApi: true, scrollback: 1000});
	const [command, ...prefix] = options.command ?? [process.execPath, cliPath];
	const child = pty.spawn(command!, [...prefix, ...args], {
		name: 'xterm-256color',
		cols,
		rows,
		cwd: repoRoot,
		env: cliEnv({TERM: 'xterm-256color', ...options.env}),
	});
	running.add(child);
	let raw = '';
	let exit: PtyExit | undefined;
	let exitedAt: number | undefined;
	let pendingWrites = 0;
	let maxScrolled = 0;
	const titles: string[] = [];
	terminal.onTitleChange(title => {
		titles.push(title);
	});
	const listeners = new Set<() => void>();
	const changed = () => {
		for (const listener of [...listeners]) {
			listener();
		}
	};

	let lastDataAt = Date.now();
	child.onData(data => {
		raw += data;
		lastDataAt = Date.now();
		pendingWrites++;
		// xterm parses asynchronously: look at the screen once this chunk is in the buffer.
		terminal.write(data, () => {
			pendingWrites--;
			maxScrolled = Math.max(maxScrolled, terminal.buffer.active.baseY);
			changed();
		});
	});
	const exited = new Promise<PtyExit>(resolve => {
		child.onExit(({exitCode, signal}) => {
			exitedAt = Date.now();
			running.delete(child);
			// Let xterm finish parsing what was written before the exit.
			terminal.write('', () => {
				exit = {exitCode, signal};
				changed();
				resolve(exit);
			});
		});
	});

	const screen = () => {
		const buffer = terminal.buffer.active;
		const lines: string[] = [];
		for (let y = 0; y < rows; y++) {
			lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
		}

		return lines;
	};

	const text = () => screen().join('\n');
	const logicalLines = () => {
		const buffer = terminal.buffer.active;
		const lines: string[] = [];
		for (let y = 0; y < rows; y++) {
			const line = buffer.getLine(buffer.viewportY + y);
			const content = line?.translateToString(true) ?? '';
			if (line?.isWrapped && lines.length > 0) {
				lines[lines.length - 1] += content;
			} else {
				lines.push(content);
			}
		}

		return lines;
	};
	const describe = () => `$ planwatch ${args.join(' ')}  (${cols}x${rows} pty)\n--- screen ---\n${text()}\n--- exit: ${exit ? `code ${exit.exitCode}` : 'still running'}`;

	const waitForScreen = async (condition: (text: string) => boolean, what: string, timeoutMs = 120_000) => {
		const holds = () => pendingWrites === 0 && condition(text());
		if (holds()) {
			return;
		}

		await new Promise<void>((resolve, reject) => {
			const check = () => {
				if (holds()) {
					cleanup();
					resolve();
				}
			};

			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${describe()}`));
			}, timeoutMs);
			// Time-based conditions (a countdown) change without output; look again now and then.
			const poll = setInterval(check, 50);
			const cleanup = () => {
				clearTimeout(timer);
				clearInterval(poll);
				listeners.delete(check);
			};

			listeners.add(check);
		});
	};

	return {
		cols,
		rows,
		screen,
		text,
		logicalLines,
		raw: () => raw,
		maxScrolled: () => maxScrolled,
		titles: () => [...titles],
		press: keys => {
			if (exit === undefined) {
				child.write(keys);
			}
		},
		waitForScreen,
		waitForQuiet: async (quietMs = 150, timeoutMs = 10_000) => {
			await waitForScreen(() => Date.now() - lastDataAt >= quietMs, `${quietMs} ms without output`, timeoutMs);
		},
		waitForText: async (needle, timeoutMs) => {
			const matches = (t: string) => (typeof needle === 'string' ? t.includes(needle) : needle.test(t));
			await waitForScreen(matches, `the screen to show ${String(needle)}`, timeoutMs);
		},
		exited,
		exit: () => exit,
		exitedAt: () => exitedAt,
		waitForExit: async (timeoutMs = 120_000) => {
			await waitForScreen(() => exit !== undefined, 'the CLI to exit', timeoutMs);
			return exit!;
		},
		kill: (signal = 'SIGKILL') => {
			if (exit === undefined) {
				child.kill(signal);
			}
		},
		describe,
	};
}

export function killAllPtys(): void {
	for (const child of running) {
		child.kill('SIGKILL');
	}

	running.clear();
}
