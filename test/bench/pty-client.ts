/**
 * A command in a pseudo-terminal (node-pty) whose output is parsed by a headless xterm, so the bench reads the
 * screen a user sees. Every chunk of output is stamped when it arrives; once xterm has parsed it, listeners
 * get that arrival time: "the frame containing X" is the first chunk after which the screen shows X.
 */
import xterm from '@xterm/headless';
import pty from 'node-pty';

export type PtyClient = {
	readonly pid: number;
	/** Bytes the process has written to the terminal so far. */
	bytes(): number;
	/** The visible screen, one string per row. */
	lines(): string[];
	/**
	 * What changed on the screen so far (with `countChanges`): cells whose character or style changed after a
	 * chunk, on rows whose text changed, and the bytes a plain writer would need for them — per run of changed
	 * cells on a row, one absolute cursor move (`ESC[row;colH`), the run's characters and an SGR sequence where the
	 * style changes (the pen keeps its style from one run to the next); runs closer than a cursor move's length
	 * are joined. An estimate, not a bound: a row whose colours alone changed counts nothing, and a cleverer writer
	 * (relative moves, erase-to-end, k9s's tcell) needs fewer bytes.
	 */
	changes(): {readonly cells: number; readonly bytes: number};
	/** Type into the terminal. */
	write(data: string): void;
	/** Called after each chunk is on the screen, with its arrival time (performance.now()). */
	onScreen(listener: (arrivedAt: number) => void): () => void;
	/** Resolves with the arrival time of the chunk after which `condition` first holds; rejects if the process exits first. */
	waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<number>;
	/** SIGTERM, then SIGKILL if it has not exited after a while. */
	stop(): Promise<void>;
	/** Resolves when the process has exited (and what it wrote is on the screen). */
	readonly exited: Promise<void>;
};

type Options = {cols: number; rows: number; env: Record<string, string>; cwd: string; countChanges?: boolean};

/** The SGR parameters that draw `cell`'s style from the default ('' for the default itself). */
function sgrParameters(cell: xterm.IBufferCell): string {
	if (cell.isAttributeDefault()) {
		return '';
	}

	const p: string[] = [];
	for (const [on, code] of [[cell.isBold(), '1'], [cell.isDim(), '2'], [cell.isItalic(), '3'], [cell.isUnderline(), '4'], [cell.isInverse(), '7'], [cell.isStrikethrough(), '9']] as const) {
		if (on) {
			p.push(code);
		}
	}

	const colour = (palette: boolean, rgb: boolean, value: number, base: number) => {
		if (palette) {
			p.push(value < 8 ? `${base}${value}` : value < 16 ? `${base + 60}${value - 8}` : `${base + 8};5;${value}`);
		} else if (rgb) {
			p.push(`${base + 8};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`);
		}
	};

	colour(cell.isFgPalette(), cell.isFgRGB(), cell.getFgColor(), 3);
	colour(cell.isBgPalette(), cell.isBgRGB(), cell.getBgColor(), 4);
	return p.join(';');
}

type Row = {readonly text: string; readonly chars: string[]; readonly styles: string[]};

/** Counts what changed between two screens (PtyClient.changes). */
function changeCounter(terminal: xterm.Terminal, rows: number, cols: number) {
	const blank: Row = {text: '', chars: Array.from({length: cols}, () => ''), styles: Array.from({length: cols}, () => '')};
	let previous: Row[] = Array.from({length: rows}, () => blank);
	let cells = 0;
	let bytes = 0;
	// The pen's style, kept from one run to the next.
	let style = '';
	const cell = terminal.buffer.active.getNullCell();
	return {
		update() {
			const buffer = terminal.buffer.active;
			const next: Row[] = [];
			for (let y = 0; y < rows; y++) {
				const line = buffer.getLine(buffer.viewportY + y);
				const text = line?.translateToString(false) ?? '';
				const old = previous[y]!;
				if (text === old.text) {
					next.push(old);
					continue;
				}

				const row: Row = {text, chars: [], styles: []};
				for (let x = 0; x < cols; x++) {
					const c = line?.getCell(x, cell);
					row.chars.push(c?.getChars() ?? '');
					row.styles.push(c ? sgrParameters(c) : '');
				}

				next.push(row);
				// Runs of changed cells; a gap shorter than a cursor move is cheaper to write through.
				let runStart = -1;
				let runEnd = -1;
				const flush = () => {
					if (runStart === -1) {
						return;
					}

					bytes += `\x1b[${y + 1};${runStart + 1}H`.length;
					for (let x = runStart; x <= runEnd; x++) {
						if (row.styles[x] !== style) {
							style = row.styles[x]!;
							// ESC [ 0 ; params m (or ESC [ m back to the default)
							bytes += style === '' ? 3 : 5 + style.length;
						}

						bytes += Math.max(1, Buffer.byteLength(row.chars[x]!));
					}
				};

				for (let x = 0; x < cols; x++) {
					if (row.chars[x] === old.chars[x] && row.styles[x] === old.styles[x]) {
						continue;
					}

					cells++;
					if (runStart !== -1 && x - runEnd <= 8) {
						runEnd = x;
					} else {
						flush();
						runStart = x;
						runEnd = x;
					}
				}

				flush();
			}

			previous = next;
		},
		totals: () => ({cells, bytes}),
	};
}

export function startPty(command: string, args: readonly string[], options: Options): PtyClient {
	const terminal = new xterm.Terminal({cols: options.cols, rows: options.rows, allowProposedApi: true, scrollback: 0});
	const child = pty.spawn(command, [...args], {name: 'xterm-256color', cols: options.cols, rows: options.rows, cwd: options.cwd, env: options.env});
	const listeners = new Set<(arrivedAt: number) => void>();
	const counter = options.countChanges ? changeCounter(terminal, options.rows, options.cols) : undefined;
	let bytes = 0;
	let exited = false;
	let how = '';
	const exitListeners = new Set<() => void>();
	const exit = new Promise<void>(resolve => {
		child.onExit(({exitCode, signal}) => {
			how = signal ? `signal ${signal}` : `exit code ${exitCode}`;
			// Let xterm show what was written before the exit.
			terminal.write('', () => {
				exited = true;
				for (const listener of [...exitListeners]) {
					listener();
				}

				resolve();
			});
		});
	});
	child.onData(data => {
		const arrivedAt = performance.now();
		bytes += Buffer.byteLength(data);
		terminal.write(data, () => {
			counter?.update();
			for (const listener of [...listeners]) {
				listener(arrivedAt);
			}
		});
	});

	const lines = () => {
		const buffer = terminal.buffer.active;
		const out: string[] = [];
		for (let y = 0; y < options.rows; y++) {
			out.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
		}

		return out;
	};

	const onScreen = (listener: (arrivedAt: number) => void) => {
		listeners.add(listener);
		return () => {
			listeners.delete(listener);
		};
	};

	return {
		pid: child.pid,
		exited: exit,
		bytes: () => bytes,
		changes: () => counter?.totals() ?? {cells: 0, bytes: 0},
		lines,
		write(data) {
			child.write(data);
		},
		onScreen,
		async waitFor(condition, what, timeoutMs) {
			return new Promise<number>((resolve, reject) => {
				const fail = (why: string) => {
					clearTimeout(timer);
					off();
					exitListeners.delete(onExit);
					reject(new Error(`bench: ${why} waiting for ${what}; the screen:\n${lines().join('\n').trimEnd()}`));
				};

				const timer = setTimeout(() => {
					fail(`timed out after ${timeoutMs} ms`);
				}, timeoutMs);
				const onExit = () => {
					fail(`the process exited (${how})`);
				};

				exitListeners.add(onExit);
				const off = onScreen(arrivedAt => {
					if (condition()) {
						clearTimeout(timer);
						off();
						exitListeners.delete(onExit);
						resolve(arrivedAt);
					}
				});
				if (exited) {
					onExit();
				}
			});
		},
		async stop() {
			if (exited) {
				return;
			}

			child.kill('SIGTERM');
			const killer = setTimeout(() => {
				if (!exited) {
					child.kill('SIGKILL');
				}
			}, 3000);
			await exit;
			clearTimeout(killer);
			terminal.dispose();
		},
	};
}
