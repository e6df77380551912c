/**
 * The demo, in-process, drawn into a headless terminal at moments we choose: demo source → Store → wait
 * controller → Ink App → @xterm/headless (test/helpers/terminal.ts's approach), all on a FakeClock. Nothing
 * reads the real time except Ink's spinner timer, whose frame `capture()` pins (see `spinnerFrames`), so the
 * same script always yields the same screens.
 */
import {EventEmitter} from 'node:events';
import xterm from '@xterm/headless';
import {render as inkRender, type Instance} from 'ink';
import {createElement} from 'react';
import {tuiGraceMs} from '../../source/cli/run-tui.js';
import {RunTracker} from '../../source/history/run-tracker.js';
import {objectKey, type PlanObject} from '../../source/model/plan-tree.js';
import {RunHistory, type RunRecord} from '../../source/model/run-history.js';
import {findScenario} from '../../source/scenarios/catalog.js';
import {scenarioTargets, type Scenario} from '../../source/scenarios/scenario.js';
import {createDemoSource, demoNamespace} from '../../source/sources/demo-source.js';
import type {ObjectSource} from '../../source/state/object-source.js';
import {createReplaySource} from '../../source/sources/replay-source.js';
import {createMultiContextSource} from '../../source/sources/multi-context-source.js';
import type {Clock} from '../../source/core/clock.js';
import {ReplayClock, type ReplayControls} from '../../source/recording/replay-clock.js';
import {FakeClock} from '../../test/helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {createWaitController, type WaitController} from '../../source/state/wait-controller.js';
import {App} from '../../source/ui/app.js';
import {recordScenario} from '../../test/helpers/recordings.js';
import {FakeStdin, settle} from '../../test/helpers/ui.js';
import {terminalWidth} from './cell-width.js';

const {Terminal} = xterm;
type XTerm = InstanceType<typeof Terminal>;

/** A colour as the terminal stored it. */
export type CellColor = {readonly mode: 'default'} | {readonly mode: 'palette'; readonly index: number}
	| {readonly mode: 'rgb'; readonly rgb: number};

export type Cell = {
	/** What the cell shows ('' for the second half of a wide character, ' ' when empty). */
	readonly chars: string;
	/** Columns taken: 1, 2 (wide), 0 (covered by the wide character to its left). */
	readonly width: number;
	readonly fg: CellColor;
	readonly bg: CellColor;
	readonly bold: boolean;
	readonly dim: boolean;
	readonly italic: boolean;
	readonly underline: boolean;
	readonly inverse: boolean;
};

/** One captured screen: `rows` lines of `columns` cells. */
export type Screen = {
	readonly columns: number;
	readonly rows: number;
	readonly lines: ReadonlyArray<readonly Cell[]>;
};

/** The braille frames of source/ui/components/spinner.tsx; the app animates them in real time. */
export const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** The frame every captured spinner shows. */
export const pinnedSpinnerFrame = '⠹';

export type DemoOptions = {
	/** A scenario name from source/scenarios/catalog.ts. */
	readonly scenario: string;
	readonly columns: number;
	readonly rows: number;
	/** `--wait`: wait for every object the scenario creates. */
	readonly wait?: boolean;
	/** `--timeout` in ms (with `wait`). */
	readonly timeoutMs?: number;
	/** `--extend` in ms (what `+` adds). */
	readonly extendMs?: number;
	readonly ascii?: boolean;
	/** `planwatch replay`: the scenario is recorded first (as --record does), then replayed; `at` moves the real clock. */
	readonly replay?: boolean;
	/**
	 * Past runs of the same scenario for the ETA history (in memory, never a file): each plays the scenario to its
	 * end at one of these speeds, so the history holds faster and slower runs than the one on screen.
	 */
	readonly pastRunSpeeds?: readonly number[];
	/**
	 * Several kubeconfig contexts in one view: each plays its own scenario (or, `down`, never connects), composed
	 * by the multi-context source as `--context a --context b` composes cluster sources. `scenario` is then unused.
	 */
	readonly contexts?: ReadonlyArray<{readonly name: string; readonly scenario?: string; readonly down?: string}>;
};

/** A context whose cluster cannot be reached: it retries, as a cluster source does. */
function downSource(reason: string): ObjectSource {
	return {
		label: 'down',
		scope: demoNamespace,
		start(sink) {
			sink({type: 'connection', state: {status: 'reconnecting', attempt: 3, lastError: reason}});
		},
		stop() {},
	};
}

/** How long a scenario is played for the history (every scenario ends well within it). */
const pastRunMs = 180_000;

/** The runs a RunTracker files while the scenario plays at `speed`, named apart from the other plays. */
async function pastRuns(scenario: Scenario, speeds: readonly number[]): Promise<RunRecord[]> {
	const records: RunRecord[] = [];
	for (const [i, speed] of speeds.entries()) {
		const clock = new FakeClock();
		const source = createDemoSource({scenarios: [scenario], clock, speed, namespace: demoNamespace});
		const store = new Store(clock);
		const tracker = new RunTracker();
		source.start(event => {
			store.apply(event);
			records.push(...tracker.observe(store.getSnapshot()).map(r => ({...r, run: `${r.run}-${i}`})));
		});
		for (let t = 0; t < pastRunMs; t += 1000) {
			clock.advance(1000);
		}

		await source.stop();
	}

	return records;
}

export type DemoSession = {
	/** Move the fake clock to `ms` after the demo started (never backwards), then let the screen settle. */
	advanceTo(ms: number): Promise<void>;
	/** Type keys one at a time (a lone ESC only last, as in test/helpers/ui.ts). */
	press(...keys: string[]): Promise<void>;
	/** The screen once it has settled and `expected` matches its text; fails with the screen after a deadline. */
	capture(expected?: RegExp): Promise<Screen>;
	/** The visible screen as text, one line per row. */
	text(): string;
	close(): Promise<void>;
};

/** A TTY-like stdout for Ink whose bytes go to the emulator; `pending` counts writes xterm has not parsed. */
class TerminalStdout extends EventEmitter {
	readonly isTTY = true;
	pending = 0;

	constructor(
		readonly terminal: XTerm,
		readonly columns: number,
		readonly rows: number,
	) {
		super();
	}

	/** Like a stream: the callback (Ink's waitUntilRenderFlush passes one) runs once the data is on screen. */
	write = (data: string, encodingOrCallback?: unknown, callback?: () => void): boolean => {
		const done = typeof encodingOrCallback === 'function' ? (encodingOrCallback as () => void) : callback;
		this.pending++;
		this.terminal.write(data, () => {
			this.pending--;
			done?.();
		});
		return true;
	};
}

/**
 * xterm's built-in width table is Unicode 6, where emoji such as ⏰ are one column; Ink (string-width) and
 * today's terminals give them two. Teach the emulator the widths Ink lays out with, or lines would shift.
 */
function useModernWidths(terminal: XTerm): void {
	terminal.unicode.register({
		version: 'planwatch-media',
		wcwidth: terminalWidth,
		// xterm's packed property: width in bits 1–2, "joins the previous character" in bit 0 (as its v6 provider does).
		charProperties(codepoint: number, preceding: number): number {
			let width: number = terminalWidth(codepoint);
			let join = width === 0 && preceding !== 0;
			if (join) {
				const before = (preceding >> 1) & 3;
				if (before === 0) {
					join = false;
				} else if (before > width) {
					width = before;
				}
			}

			return ((width & 3) << 1) | (join ? 1 : 0);
		},
	});
	terminal.unicode.activeVersion = 'planwatch-media';
}

function colorOf(mode: 'fg' | 'bg', cell: xterm.IBufferCell): CellColor {
	const isDefault = mode === 'fg' ? cell.isFgDefault() : cell.isBgDefault();
	if (isDefault) {
		return {mode: 'default'};
	}

	const value = mode === 'fg' ? cell.getFgColor() : cell.getBgColor();
	const isRgb = mode === 'fg' ? cell.isFgRGB() : cell.isBgRGB();
	return isRgb ? {mode: 'rgb', rgb: value} : {mode: 'palette', index: value};
}

/** The visible screen as cells, with every spinner frame pinned to one frame. */
export function readScreen(terminal: XTerm): Screen {
	const buffer = terminal.buffer.active;
	const scratch = buffer.getNullCell();
	const lines: Cell[][] = [];
	for (let y = 0; y < terminal.rows; y++) {
		const line = buffer.getLine(buffer.viewportY + y);
		const cells: Cell[] = [];
		for (let x = 0; x < terminal.cols; x++) {
			const cell = line?.getCell(x, scratch);
			if (!cell) {
				cells.push({
					chars: ' ',
					width: 1,
					fg: {mode: 'default'},
					bg: {mode: 'default'},
					bold: false,
					dim: false,
					italic: false,
					underline: false,
					inverse: false,
				});
				continue;
			}

			const width = cell.getWidth();
			const chars = cell.getChars();
			cells.push({
				chars: spinnerFrames.includes(chars) ? pinnedSpinnerFrame : width === 0 ? '' : chars || ' ',
				width,
				fg: colorOf('fg', cell),
				bg: colorOf('bg', cell),
				bold: cell.isBold() !== 0,
				dim: cell.isDim() !== 0,
				italic: cell.isItalic() !== 0,
				underline: cell.isUnderline() !== 0,
				inverse: cell.isInverse() !== 0,
			});
		}

		lines.push(cells);
	}

	return {columns: terminal.cols, rows: terminal.rows, lines};
}

export function screenText(screen: Screen): string {
	return screen.lines.map(cells => cells.map(c => c.chars).join('').trimEnd()).join('\n');
}

/** Start a demo scenario on a fake clock, drawn into a headless terminal of a fixed size. */
export async function openDemo(options: DemoOptions): Promise<DemoSession> {
	const scenario = findScenario(options.scenario);
	if (!scenario) {
		throw new Error(`unknown scenario ${options.scenario}`);
	}

	const clock = new FakeClock();
	const startedAt = clock.now();
	const history = options.pastRunSpeeds ? new RunHistory(await pastRuns(scenario, options.pastRunSpeeds)) : undefined;
	const targets = options.wait ? scenarioTargets(scenario, demoNamespace).map(t => objectKey(t)) : [];
	let appClock: Clock = clock;
	let source: ObjectSource;
	let replay: ReplayControls | undefined;
	if (options.replay) {
		const {recording} = recordScenario(options.scenario, targets);
		const replayClock = new ReplayClock(clock, recording.startMs, 1);
		const replaySource = createReplaySource({recording, clock: replayClock});
		[appClock, source, replay] = [replayClock, replaySource, replaySource.controls];
	} else if (options.contexts) {
		source = createMultiContextSource(options.contexts.map(c => ({
			context: c.name,
			source: c.down === undefined
				? createDemoSource({scenarios: [findScenario(c.scenario ?? '')!], clock, namespace: demoNamespace})
				: downSource(c.down),
		})), demoNamespace);
	} else {
		source = createDemoSource({scenarios: [scenario], clock, namespace: demoNamespace});
	}

	const store = new Store(appClock);
	source.start(store.apply);
	const wait: WaitController = createWaitController({
		store,
		clock: appClock,
		wait: options.wait ?? false,
		targets,
		timeoutMs: options.timeoutMs,
		extendMs: options.extendMs ?? 5 * 60_000,
		graceMs: tuiGraceMs,
	});

	const terminal = new Terminal({cols: options.columns, rows: options.rows, allowProposedApi: true, scrollback: 0, convertEol: true});
	// eslint-disable-next-line react-hooks/rules-of-hooks -- not a React hook: it sets xterm's Unicode widths
	useModernWidths(terminal);
	const stdout = new TerminalStdout(terminal, options.columns, options.rows);
	const stdin = new FakeStdin();
	const element = createElement(App, {
		store,
		clock: appClock,
		replay,
		wait,
		header: {context: source.label, scope: source.scope},
		targets,
		ascii: options.ascii ?? false,
		color: true,
		// The shots print clock times ("updated 11:00:13"): the same in every zone.
		timeZone: 'UTC',
		onQuit() {},
		expectations: history ? (object: PlanObject) => history.expectations(object) : undefined,
	});
	const instance: Instance = inkRender(element, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		stderr: new EventEmitter() as unknown as NodeJS.WriteStream,
		interactive: true,
		exitOnCtrlC: false,
		patchConsole: false,
	});

	const text = () => screenText(readScreen(terminal));
	/** React, Ink's throttled renders and xterm's parser, in that order. */
	const flush = async () => {
		await settle();
		await instance.waitUntilRenderFlush();
		while (stdout.pending > 0) {
			await settle();
		}
	};

	await flush();
	return {
		async advanceTo(ms) {
			const by = startedAt + ms - clock.now();
			if (by < 0) {
				throw new Error(`advanceTo(${ms}): the clock is already at ${clock.now() - startedAt} ms`);
			}

			clock.advance(by);
			await flush();
		},
		async press(...keys) {
			for (const key of keys) {
				stdin.write(key);
				await flush();
			}
		},
		async capture(expected) {
			// Settled = the same (spinner-pinned) text twice in a row after a full flush.
			const deadline = Date.now() + 5000;
			let previous = '';
			for (;;) {
				await flush();
				const screen = readScreen(terminal);
				const current = screenText(screen);
				if (current === previous && (!expected || expected.test(current))) {
					return screen;
				}

				if (Date.now() > deadline) {
					throw new Error(`the screen never settled${expected ? ` on ${String(expected)}` : ''}. Screen (${terminal.cols}` +
						`x${terminal.rows}):\n${current}`);
				}

				previous = current;
			}
		},
		text,
		async close() {
			wait.dispose();
			instance.unmount();
			instance.cleanup();
			await source.stop();
			terminal.dispose();
		},
	};
}
