/**
 * Live plain and json output for a source that changes (cluster, demo) when stdout is not a terminal:
 * append-only, never a cursor movement. Plain: one line per object once synced, one line per status change,
 * then the closing lines and the final tree. Json: NDJSON, a snapshot once synced, one line per transition, a
 * final snapshot and the result. Ends when the wait ends (with --wait), or on a signal (130), or on a fatal
 * source error; a reached timeout exits 3 at once (no one can press + here).
 */
import type {Expectation} from '../model/eta.js';
import type {ConnectionState} from '../state/object-source.js';
import {formatDurationWords} from '../model/format-duration.js';
import type {PlanObject} from '../model/plan-tree.js';
import {objectKey} from '../model/plan-tree.js';
import {timeOfDay} from '../model/clock-time.js';
import {resultLine, snapshotLine, transitionLine} from '../render/json.js';
import {formatFinished, formatObjectLine, formatTransition, renderPlain} from '../render/plain.js';
import type {Clock} from '../core/clock.js';
import type {Store, StoreSnapshot, Transition} from '../state/store.js';
import {createWaitController, type WaitResult} from '../state/wait-controller.js';
import {onceExitCode} from './describe-error.js';
import type {Options} from './parse-args.js';
import {whenSynced} from './when-synced.js';

export type StreamRun = {
	readonly store: Store;
	readonly clock: Clock;
	readonly options: Pick<Options, 'ascii' | 'color' | 'wait' | 'timeoutMs' | 'extendMs'> & {readonly output: 'plain' | 'json'};
	/** Object keys (`Kind/namespace/name`) to wait for and report; empty = every object. */
	readonly targets: readonly string[];
	/** Writes to stdout; resolves when the text is handed over. */
	readonly write: (text: string) => Promise<void>;
	/** Resolves when the process is asked to stop (SIGINT/SIGTERM): the run ends with 130. */
	readonly interrupted: Promise<void>;
	/** Called with the result as soon as it is decided, before the closing lines are written. */
	readonly onResult?: (result: WaitResult) => void;
	/** IANA zone for times of day (tests); default: the machine's. */
	readonly timeZone?: string;
	/**
	 * Replay: settles when the recording has played to its end; the run ends with it. Exit code -1: as `-f` would
	 * end on the final state (1 if a reported object failed, else 0).
	 */
	readonly ended?: Promise<WaitResult>;
	/** Called once every change from here on will be reported (a replay starts playing then). */
	readonly onReady?: () => void;
	/** Past runs, for the `eta` keys of json snapshots (none without a history). */
	readonly expectations?: (object: PlanObject) => ReadonlyMap<string, Expectation>;
};

export async function runStream(run: StreamRun): Promise<WaitResult> {
	const {store, clock, options, targets} = run;
	const text = {ascii: options.ascii, color: options.color, timeZone: run.timeZone};
	const wanted = (key: string): boolean => targets.length === 0 || targets.includes(key);
	const wait = createWaitController({store, clock, wait: options.wait, targets, timeoutMs: options.timeoutMs, extendMs: options.extendMs, graceMs: 0});
	const interrupted = run.interrupted.then((): WaitResult => ({exitCode: 130, message: 'interrupted'}));
	const ended = (run.ended ?? new Promise<never>(() => {})).then((end): WaitResult => {
		if (end.exitCode >= 0) {
			return end;
		}

		return {exitCode: onceExitCode(store.getSnapshot().objects.filter(o => wanted(objectKey(o)))), message: ''};
	});

	// Writes are queued so lines never interleave, whatever the order in which changes arrive.
	let queue = Promise.resolve();
	const write = (output: string): void => {
		if (output !== '') {
			queue = queue.then(async () => run.write(output));
		}
	};

	// Before the first complete list a CI log would otherwise stay empty while planwatch retries: say why.
	// From the store's first state: a source may have moved on (e.g. to a credential plugin) before this ran.
	let early: ConnectionState = {status: 'connecting'};
	const reportEarly = (): void => {
		const snapshot = store.getSnapshot();
		if (snapshot.synced || snapshot.connection === early) {
			return;
		}

		const said = connectionChange(early, snapshot.connection, false);
		early = snapshot.connection;
		if (said && options.output === 'plain') {
			write(`${timeOfDay(clock.now(), run.timeZone)} ${said}\n`);
		}
	};

	// Supporting collections RBAC hides (events, blueprints…): the log says once what is missing and why.
	let missingSaid = 0;
	const reportMissing = (): void => {
		const missing = store.getSnapshot().missing ?? [];
		if (options.output === 'plain') {
			write(missing.slice(missingSaid).map(m => `${timeOfDay(clock.now(), run.timeZone)} ${m.message}\n`).join(''));
		}

		missingSaid = missing.length;
	};

	const unsubscribeMissing = store.subscribe(reportMissing);
	reportMissing();
	const unsubscribeEarly = store.subscribe(reportEarly);
	reportEarly();
	const synced = await Promise.race([whenSynced(store), wait.done, interrupted, ended]);
	unsubscribeEarly();
	let lastSeq = 0;
	let unsubscribe = (): void => {};
	if ('objects' in synced) {
		const start = clock.now();
		const objects = synced.objects.filter(o => wanted(objectKey(o)));
		write(
			options.output === 'json'
				? snapshotLine({...synced, objects}, start, run.expectations && {expectations: run.expectations, timings: synced.timings})
				: objects.map(o => formatObjectLine(o, start, text) + '\n').join(''),
		);
		lastSeq = synced.transitions.at(-1)?.seq ?? 0;
		let connection = synced.connection;
		const report = (): void => {
			const snapshot = store.getSnapshot();
			const fresh = snapshot.transitions.filter(t => t.seq > lastSeq);
			lastSeq = fresh.at(-1)?.seq ?? lastSeq;
			write(fresh.filter(t => wanted(t.objectKey)).map(t => line(t)).join(''));
			if (snapshot.connection !== connection) {
				// A CI log should say why it went quiet and when the watch came back.
				const said = connectionChange(connection, snapshot.connection);
				connection = snapshot.connection;
				if (said && options.output === 'plain') {
					write(`${timeOfDay(clock.now(), run.timeZone)} ${said}\n`);
				}
			}
		};

		unsubscribe = store.subscribe(report);
	}

	run.onReady?.();

	function line(t: Transition): string {
		return options.output === 'json' ? transitionLine(t) : formatTransition(t, text) + '\n';
	}

	const result = await Promise.race([wait.done, interrupted, ended]);
	run.onResult?.(result);
	unsubscribe();
	unsubscribeMissing();
	wait.dispose();
	// Changes that arrived together with the end are still reported, before the closing lines.
	const last = store.getSnapshot();
	write(last.transitions.filter(t => t.seq > lastSeq && wanted(t.objectKey)).map(t => line(t)).join(''));
	write(closing(last, result));
	await queue;
	return result;

	function closing(snapshot: StoreSnapshot, end: WaitResult): string {
		const at = clock.now();
		const objects = snapshot.objects.filter(o => wanted(objectKey(o)));
		if (options.output === 'json') {
			return snapshotLine({...snapshot, objects}, at, run.expectations && {expectations: run.expectations, timings: snapshot.timings}) + resultLine(end, at);
		}

		const finished = objects
			.filter(o => o.outcome === 'succeeded' || o.outcome === 'failed')
			.map(o => formatFinished(o, snapshot.timings.get(objectKey(o)), at, text) + '\n')
			.join('');
		const tree = renderPlain({objects, timings: snapshot.timings}, {now: at, ascii: options.ascii, color: options.color, timeZone: run.timeZone});
		return finished + (tree === '' ? '' : `\n${tree}`);
	}
}

/**
 * The plain log's line for a change of connection state, if it deserves one. Before the first complete list
 * (`synced` false) every failed attempt and a credential plugin that is running get a line.
 */
export function connectionChange(before: ConnectionState, now: ConnectionState, synced = true): string | undefined {
	if (!synced) {
		if (now.status === 'reconnecting' && (before.status !== 'reconnecting' || before.attempt !== now.attempt || before.lastError !== now.lastError)) {
			return `cannot list yet: ${now.lastError} (attempt ${now.attempt}, retrying)`;
		}

		if (now.status === 'waiting-credentials' && before.status !== 'waiting-credentials') {
			return `waiting for credentials from ${now.plugin}${now.limitMs === undefined ? '' : ` (gives up after ${formatDurationWords(now.limitMs)})`}`;
		}

		return undefined;
	}

	if (now.status === 'reconnecting' && before.status !== 'reconnecting') {
		return `connection lost: ${now.lastError} (reconnecting)`;
	}

	if (now.status === 'live' && before.status === 'reconnecting') {
		return 'connection restored';
	}

	return undefined;
}
