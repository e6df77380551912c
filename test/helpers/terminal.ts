/**
 * Render an Ink tree into a headless xterm (gemini-cli's test-utils/render.tsx approach): Ink writes to a TTY-like
 * stdout whose bytes go to `@xterm/headless`, so a test asserts what the screen shows after cursor moves and
 * erases, and what was pushed into scrollback. Keys go in through a raw-mode stdin. Every wait has a deadline
 * whose error prints the screen.
 */
import {EventEmitter} from 'node:events';
import xterm from '@xterm/headless';
import {render as inkRender, type Instance} from 'ink';
import type {ReactNode} from 'react';
import {deadline} from './deadline.js';
import {ESC, FakeStdin, settle} from './ui.js';

const {Terminal} = xterm;

/** A stdout that looks like a terminal to Ink: a size, `isTTY`, and `resize` events. Bytes go to xterm. */
class TerminalStdout extends EventEmitter {
	readonly isTTY = true;
	raw = '';
	pending = 0;

	constructor(
		readonly terminal: InstanceType<typeof Terminal>,
		public columns: number,
		public rows: number,
	) {
		super();
	}

	write = (data: string): boolean => {
		this.raw += data;
		this.pending++;
		this.terminal.write(data, () => {
			this.pending--;
		});
		return true;
	};
}

export type TerminalUi = {
	readonly terminal: InstanceType<typeof Terminal>;
	readonly instance: Instance;
	/** The visible screen, one string per row, trailing blanks trimmed. */
	screen(): string[];
	/** The screen as text, for matching and failure messages. */
	text(): string;
	/** Lines pushed off the top into scrollback (a frame taller than the screen scrolls). */
	scrolledOff(): number;
	/** Everything Ink wrote. */
	raw(): string;
	/** Titles set by escape sequences (should stay empty). */
	readonly titles: string[];
	/** Keys typed one at a time; a lone ESC must come last (see test/helpers/ui.ts `press`). */
	press(...keys: string[]): Promise<void>;
	/** Wait until xterm has parsed every write and `condition(screen)` holds. */
	waitForScreen(condition: (screen: string[]) => boolean, what: string, timeoutMs?: number): Promise<string[]>;
	/** Resize the terminal and tell Ink (SIGWINCH). */
	resize(columns: number, rows: number): void;
	unmount(): void;
};

const mounted = new Set<TerminalUi>();

export function renderInTerminal(tree: ReactNode, options: {readonly columns: number; readonly rows: number; readonly incremental?: boolean}): TerminalUi {
	// convertEol: a real tty turns \n into \r\n (onlcr); here nothing sits between Ink and the emulator.
	const terminal = new Terminal({cols: options.columns, rows: options.rows, allowProposedApi: true, scrollback: 1000, convertEol: true});
	const titles: string[] = [];
	terminal.onTitleChange(title => titles.push(title));
	const stdout = new TerminalStdout(terminal, options.columns, options.rows);
	const stdin = new FakeStdin();
	const instance = inkRender(tree, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		stderr: new EventEmitter() as unknown as NodeJS.WriteStream,
		// Interactive even when the suite runs under CI (Ink would otherwise print only the last frame).
		interactive: true,
		exitOnCtrlC: false,
		patchConsole: false,
		// As `-o tui` renders (only changed lines, from their first changed cell), when a test asks for it.
		incrementalRendering: options.incremental ?? false,
	});
	const screen = () => {
		const buffer = terminal.buffer.active;
		return Array.from({length: terminal.rows}, (_, i) => buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
	};

	const ui: TerminalUi = {
		terminal,
		instance,
		screen,
		text: () => screen().join('\n'),
		scrolledOff: () => terminal.buffer.active.baseY,
		raw: () => stdout.raw,
		titles,
		async press(...keys) {
			if (keys.slice(0, -1).includes(ESC)) {
				throw new Error('press(): ESC must be the last key of a call');
			}

			await settle();
			for (const key of keys) {
				stdin.write(key);
				await settle();
			}
		},
		async waitForScreen(condition, what, timeoutMs = 3000) {
			// A budget of this process's CPU time (test/helpers/deadline.ts): a loaded machine does not trip it.
			const budget = deadline(timeoutMs);
			for (;;) {
				if (stdout.pending === 0 && condition(screen())) {
					return screen();
				}

				if (budget.expired()) {
					throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}. Screen (${terminal.cols}x${terminal.rows}, ${terminal.buffer.active.baseY} lines scrolled ` +
						`off):\n${screen().join('\n')}`);
				}

				await settle();
			}
		},
		resize(columns, rows) {
			terminal.resize(columns, rows);
			stdout.columns = columns;
			stdout.rows = rows;
			stdout.emit('resize');
		},
		unmount() {
			instance.unmount();
			instance.cleanup();
			terminal.dispose();
			mounted.delete(ui);
		},
	};
	mounted.add(ui);
	return ui;
}

export function cleanupTerminals(): void {
	for (const ui of [...mounted]) {
		ui.unmount();
	}
}
