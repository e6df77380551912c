/**
 * `-o tui`: the Ink App over a store, with a wait session (watching only, unless --wait). Resolves with the
 * exit code once the user quits, the wait ends, or (with --once) after the first complete frame.
 */
import {render} from 'ink';
import type {ReplayControls} from '../recording/replay-clock.js';
import type {Clock} from '../core/clock.js';
import {framedSnapshots, type FramedSnapshots} from '../state/framed-snapshots.js';
import type {Store} from '../state/store.js';
import {createWaitController, type WaitController} from '../state/wait-controller.js';
import type {Expectations} from '../ui/actions.js';
import {App} from '../ui/app.js';
import {onceExitCode} from './describe-error.js';
import {Notifier, watchFailures} from './notifier.js';
import type {Options} from './parse-args.js';
import type {TerminalSignals} from './terminal-signals.js';
import {createTuiActions} from './tui-actions.js';
import {whenSynced} from './when-synced.js';
import {exitCodes} from '../core/exit-codes.js';
import type {AsOf} from '../model/as-of.js';

/** How long the TUI offers "+ to wait more" when the timeout is reached, before exiting 3. */
export const tuiGraceMs = 10_000;

/**
 * The App gets at most one new store snapshot per 33 ms frame (30 a second). Ink's own throttle is looser (60 a
 * second): with both at 30, a frame that came just after a clock tick's redraw waited for Ink's next slot, up to
 * a whole frame more (npm run bench: p99 latency at 100 updates/s 118 → 62 ms).
 */
const frameMs = 33;
const inkMaxFps = 60;

export type TuiRun = {
	readonly store: Store;
	readonly clock: Clock;
	/** Wall time, for pacing frames, when `clock` is not (a replay's stands still and seeks back). Default: `clock`. */
	readonly frameClock?: Clock;
	readonly header: {readonly context: string; readonly scope: string};
	readonly options: Pick<Options, 'ascii' | 'color' | 'once' | 'wait' | 'plan' | 'timeoutMs' | 'extendMs' | 'notify'>
		& {readonly utc?: boolean; readonly mode?: Options['mode']};
	/** Object keys (`Kind/namespace/name`) to open and wait for; empty = every object (the list). */
	readonly targets: readonly string[];
	/** Where keys come from (default process.stdin). */
	readonly stdin?: NodeJS.ReadStream;
	/** Resolves when the process is asked to stop (SIGINT/SIGTERM): the run ends with 130. */
	readonly interrupted: Promise<void>;
	/** Replay: `[`, `]`, space, and `REPLAY` with the recorded time in the header. */
	readonly replay?: ReplayControls;
	/** Called once the App is mounted (a replay starts playing then). */
	readonly onReady?: () => void;
	/** Called with the result as soon as it is decided, before the last frame is drawn. */
	readonly onResult?: (result: TuiResult) => void;
	/** Notifications and clipboard on the terminal (nothing is sent when stdout is not one). */
	readonly signals: TerminalSignals;
	/** Where `s` saves snapshots. */
	readonly dir: string;
	/** The ETA history in memory; none with --no-history. */
	readonly expectations?: Expectations;
	/** A static snapshot (`-f`): the moment it is of; the views freeze there. */
	readonly asOf?: AsOf;
};

export type TuiResult = {readonly exitCode: number; readonly message: string};

/**
 * What the App reads: the store at most once per frame, and the wait decided on those frames, not per event (with
 * every object of a namespace waited for, each decision reads them all, and a change of its line redraws the App).
 */
export function framedWait(run: Pick<TuiRun, 'store' | 'clock' | 'frameClock' | 'options' | 'targets'>): {
	readonly snapshots: FramedSnapshots;
	readonly wait: WaitController;
} {
	const {store, clock, options, targets} = run;
	const snapshots = framedSnapshots(store, run.frameClock ?? clock, frameMs);
	const wait = createWaitController({
		store: snapshots,
		clock,
		wait: options.wait,
		// A live view that is quit exits 0; files answer as `-f -o plain` does (README: exit codes).
		quitCountsFailures: options.mode === 'file',
		targets,
		timeoutMs: options.timeoutMs,
		extendMs: options.extendMs,
		graceMs: tuiGraceMs,
		...(options.plan === undefined ? {} : {plan: options.plan}),
	});
	return {snapshots, wait};
}

export async function runTui(run: TuiRun): Promise<TuiResult> {
	const {store, clock, options, targets} = run;
	const {snapshots, wait} = framedWait(run);
	const notifier = new Notifier(options.notify, run.signals, clock.now());
	const actions = createTuiActions({
		store,
		clock,
		ascii: options.ascii,
		signals: run.signals,
		notifier,
		dir: run.dir,
		expectations: run.expectations,
		timeZone: options.utc ? 'UTC' : undefined,
		...(run.asOf ? {asOf: run.asOf} : {}),
	});
	// Watching only: a failure is news now. With --wait, the end of the wait says it.
	const stopFailures = options.wait || options.once
		? () => undefined
		: watchFailures(store, targets, object => notifier.objectFailed(object, clock.now()));
	const stdin = run.stdin ?? process.stdin;
	// Raw mode before the first frame: Ink turns it on in an effect after its first write, and a key typed in between
	// (a user who sees the screen, a test) was echoed by the terminal onto the drawn frame and held until Enter.
	const earlyRaw = !options.once && stdin.isTTY && typeof stdin.setRawMode === 'function';
	if (earlyRaw) {
		stdin.setRawMode(true);
	}

	const app = render(
		<App
			store={snapshots}
			clock={clock}
			wait={wait}
			header={run.header}
			targets={targets}
			ascii={options.ascii}
			timeZone={options.utc ? 'UTC' : undefined}
			color={options.color}
			replay={run.replay}
			actions={actions}
			expectations={run.expectations}
			{...(run.asOf ? {asOf: run.asOf} : {})}
			onQuit={() => {
				// The session settles `wait.done`; unmounting happens below, in one place.
			}}
		/>,
		{
			stdin,
			exitOnCtrlC: false,
			incrementalRendering: true,
			maxFps: inkMaxFps,
			// A terminal is a terminal: Ink alone would turn a TTY non-interactive whenever CI is set (is-in-ci),
			// drawing only the last frame and ignoring keys. TERM=dumb and pipes already get plain output.
			interactive: Boolean(process.stdout.isTTY),
		},
	);

	run.onReady?.();
	let result: TuiResult;
	if (options.once) {
		const snapshot = await whenSynced(store);
		result = snapshot.fatal ?? {exitCode: onceExitCode(snapshot.objects), message: ''};
		run.onResult?.(result);
		snapshots.flush();
		await app.waitUntilRenderFlush();
	} else {
		result = await Promise.race([wait.done, run.interrupted.then(() => ({exitCode: exitCodes.interrupted, message: ''}))]);
		run.onResult?.(result);
		// The last frame must show the state the result was decided on, not the previous 33 ms frame's.
		snapshots.flush();
		await new Promise(resolve => {
			setImmediate(resolve);
		});
		await app.waitUntilRenderFlush();
		if (options.wait) {
			notifier.waitEnded(result, clock.now());
		}
	}

	stopFailures();
	wait.dispose();
	snapshots.dispose();
	app.unmount();
	await app.waitUntilExit();
	if (earlyRaw) {
		stdin.setRawMode(false);
	}

	return result;
}
