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
import {printerFor} from '../render/printer.js';
import type {Clock} from '../core/clock.js';
import type {Store} from '../state/store.js';
import {createWaitController, type WaitResult} from '../state/wait-controller.js';
import {onceExitCode} from './describe-error.js';
import type {Options} from './parse-args.js';
import {whenSynced} from './when-synced.js';
import {exitCodes, isExitCode} from '../core/exit-codes.js';
import type {PlanNode} from '../model/plan-tree.js';
import {noWants, objectWatchWants, type WatchWants} from '../state/watch-wants.js';
import type {Interest} from '../state/object-source.js';
import type {StoreSnapshot} from '../state/store.js';
import {diagnoseIn} from '../state/workloads.js';
import type {Printer} from '../render/printer.js';

export type StreamRun = {
	readonly store: Store;
	readonly clock: Clock;
	readonly options: Pick<Options, 'ascii' | 'color' | 'wait' | 'plan' | 'timeoutMs' | 'extendMs'> & {readonly output: 'plain' | 'json'};
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
	 * Replay: settles when the recording has played to its end; the run ends with it. A code that is not an exit
	 * code (-1): as `-f` would end on the final state (1 if a reported object failed, else 0).
	 */
	readonly ended?: Promise<{readonly exitCode: number; readonly message: string}>;
	/** Called once every change from here on will be reported (a replay starts playing then). */
	readonly onReady?: () => void;
	/** Past runs, for the `eta` keys of json snapshots (none without a history). */
	readonly expectations?: (object: PlanObject) => ReadonlyMap<string, Expectation>;
};

/**
 * What the log says besides transitions: each supporting collection RBAC hides (events, blueprints…), once, with
 * why; each kind past the store's cap of objects, once; and, with several contexts, one that gives up, as it
 * happens (the others keep going).
 */
function watchSideNotes(store: StreamRun['store'], note: (text: string) => void): () => void {
	let missingSaid = 0;
	let limitedSaid = 0;
	const failedSaid = new Set<string>();
	const report = (): void => {
		const snapshot = store.getSnapshot();
		const missing = snapshot.missing ?? [];
		for (const m of missing.slice(missingSaid)) {
			note(m.message);
		}

		missingSaid = missing.length;
		const limited = snapshot.limited ?? [];
		for (const l of limited.slice(limitedSaid)) {
			note(l.message);
		}

		limitedSaid = limited.length;
		for (const c of snapshot.contexts ?? []) {
			if (c.fatal && !failedSaid.has(c.name)) {
				failedSaid.add(c.name);
				note(`context ${c.name}: ${c.fatal.message}`);
			}
		}
	};

	const unsubscribe = store.subscribe(report);
	report();
	return unsubscribe;
}

export async function runStream(run: StreamRun): Promise<WaitResult> {
	const {store, clock, options, targets} = run;
	const printer = printerFor(options.output, {
		ascii: options.ascii,
		color: options.color,
		timeZone: run.timeZone,
		expectations: run.expectations,
		...(options.plan === undefined ? {} : {plan: options.plan}),
	});
	const wanted = (key: string): boolean => targets.length === 0 || targets.includes(key);
	const startedAt = clock.now();
	const wait = createWaitController({
		store,
		clock,
		wait: options.wait,
		targets,
		timeoutMs: options.timeoutMs,
		extendMs: options.extendMs,
		graceMs: 0,
		...(options.plan === undefined ? {} : {plan: options.plan}),
	});
	const interrupted = run.interrupted.then((): WaitResult => ({exitCode: exitCodes.interrupted, message: 'interrupted'}));
	const ended = (run.ended ?? new Promise<never>(() => {})).then((end): WaitResult => {
		if (isExitCode(end.exitCode)) {
			return {exitCode: end.exitCode, message: end.message};
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
		if (said) {
			write(printer.note(said, clock.now()));
		}
	};

	const unsubscribeNotes = watchSideNotes(store, text => {
		write(printer.note(text, clock.now()));
	});
	const unsubscribeEarly = store.subscribe(reportEarly);
	reportEarly();
	const synced = await Promise.race([whenSynced(store), wait.done, interrupted, ended]);
	unsubscribeEarly();
	let lastSeq = 0;
	let unsubscribe = (): void => {};
	if ('objects' in synced) {
		const start = clock.now();
		const objects = synced.objects.filter(o => wanted(objectKey(o)));
		write(printer.started({...synced, objects}, start));
		lastSeq = synced.transitions.at(-1)?.seq ?? 0;
		let connection = synced.connection;
		const report = (): void => {
			const snapshot = store.getSnapshot();
			const fresh = transitionsAfter(snapshot.transitions, lastSeq);
			lastSeq = fresh.at(-1)?.seq ?? lastSeq;
			write(fresh.filter(t => wanted(t.objectKey)).map(t => printer.transition(t)).join(''));
			if (snapshot.connection !== connection) {
				// A CI log should say why it went quiet and when the watch came back.
				const said = connectionChange(connection, snapshot.connection);
				connection = snapshot.connection;
				if (said) {
					write(printer.note(said, clock.now()));
				}
			}
		};

		const explain = explainFailed(store, wanted, printer, write, clock);
		explain();
		unsubscribe = store.subscribe(() => {
			report();
			explain();
		});
	}

	run.onReady?.();

	const result = await Promise.race([wait.done, interrupted, ended]);
	run.onResult?.(result);
	unsubscribe();
	unsubscribeNotes();
	wait.dispose();
	// Changes that arrived together with the end are still reported, before the closing lines.
	const last = store.getSnapshot();
	write(last.transitions.filter(t => t.seq > lastSeq && wanted(t.objectKey)).map(t => printer.transition(t)).join(''));
	const deleted = last.deleted && new Map([...last.deleted].filter(([key, d]) => wanted(key) && d.at >= startedAt));
	write(printer.finished(
		{...last, objects: last.objects.filter(o => wanted(objectKey(o))), ...(deleted && deleted.size > 0 ? {deleted} : {})},
		result,
		clock.now(),
	));
	await queue;
	return result;
}

/** The transitions numbered after `seq`: the newest are last, so the walk back stops at the first one seen. */
function transitionsAfter<T extends {readonly seq: number}>(transitions: readonly T[], seq: number): readonly T[] {
	let from = transitions.length;
	while (from > 0 && transitions[from - 1]!.seq > seq) {
		from--;
	}

	return transitions.slice(from);
}

/**
 * Pods and logs are watched for every running or failed step and phase of the objects reported (a stream shows
 * them all); under a failed one the log says why and what to run next, each once.
 *
 * Kept per object: an event looks again at the objects it changed (the store's change log), not at every object
 * (with 1000 ActionSets at 100 updates/s the walk over all of them was two thirds of a stream's CPU). The store
 * hands out a new object, with new timings, whenever it changes, so what one object asks to watch is the same
 * while the object and the watched workloads are; anything else (an object added or gone, the workloads, the log
 * not reaching back) looks at every object again, each unchanged one from memory.
 */
function explainFailed(
	store: StreamRun['store'],
	wanted: (key: string) => boolean,
	printer: Printer,
	write: (text: string) => void,
	clock: Clock,
): () => void {
	const said = new Set<string>();
	/** Objects reported and what they ask to watch, by identity, for one version of the watched workloads. */
	let looked = new WeakMap<PlanObject, WatchWants>();
	/** objectKey → what each reported object that wants something asks (most finished objects want nothing). */
	const wanting = new Map<string, WatchWants>();
	let seen: {version: number; workloads: number} | undefined;
	const look = (snapshot: StoreSnapshot, object: PlanObject, at: number): void => {
		const key = objectKey(object);
		let wants = looked.get(object);
		if (wants === undefined) {
			wants = wanted(key) ? explainObject(snapshot, object, key, at) : noWants;
			looked.set(object, wants);
		}

		if (wants === noWants) {
			wanting.delete(key);
		} else {
			wanting.set(key, wants);
		}
	};

	return () => {
		const snapshot = store.getSnapshot();
		const workloads = store.workloads.version;
		if (seen?.version === snapshot.version && seen.workloads === workloads) {
			return;
		}

		const changes = seen?.workloads === workloads ? snapshot.changes?.between(seen.version, snapshot.version) : undefined;
		if (seen?.workloads !== workloads) {
			looked = new WeakMap();
		}

		seen = {version: snapshot.version, workloads};
		const at = clock.now();
		if (changes) {
			// The latest state of each object changed (an object gone or added is not among these: that looks at all).
			const latest = new Map<string, PlanObject>();
			for (const change of changes) {
				if ('after' in change) {
					latest.set(change.key, change.after);
				}
			}

			for (const object of latest.values()) {
				look(snapshot, object, at);
			}
		} else {
			wanting.clear();
			const {objects} = snapshot;
			for (let i = 0; i < objects.length; i++) {
				look(snapshot, objects[i]!, at);
			}
		}

		const interest: Interest[] = [];
		const logs: Array<WatchWants['logs'][number]> = [];
		for (const wants of wanting.values()) {
			interest.push(...wants.interest);
			logs.push(...wants.logs);
		}

		store.workloads.setInterest(interest);
		store.workloads.setWantedLogs(logs);
	};

	/** What one object asks to watch; says why and what to run next under each failed node not said before. */
	function explainObject(snapshot: StoreSnapshot, object: PlanObject, key: string, at: number): WatchWants {
		const visit = (nodes: readonly PlanNode[]): void => {
			for (const node of nodes) {
				visit(node.children);
				if (node.state !== 'failed') {
					continue;
				}

				const d = diagnoseIn(snapshot, object, node);
				// Each once: why per node; a command per object (a failed phase and its deferPhase share one kanctl).
				const keys = {why: `${key} ${node.id} why`, next: `${key} next ${d?.next ?? ''}`};
				for (const [part, text] of [['why', d?.cause], ['next', d?.next]] as const) {
					if (text && !said.has(keys[part])) {
						said.add(keys[part]);
						write(printer.explain(part, text, at));
					}
				}
			}
		};

		visit(object.tree);
		return objectWatchWants(object, (o, node) => diagnoseIn(snapshot, o, node));
	}
}

/**
 * The plain log's line for a change of connection state, if it deserves one. Before the first complete list
 * (`synced` false) every failed attempt and a credential plugin that is running get a line.
 */
export function connectionChange(before: ConnectionState, now: ConnectionState, synced = true): string | undefined {
	if (!synced) {
		if (
			now.status === 'reconnecting' &&
			(before.status !== 'reconnecting' || before.attempt !== now.attempt || before.lastError !== now.lastError)
		) {
			return `cannot list yet: ${now.lastError} (attempt ${now.attempt}, retrying)`;
		}

		if (now.status === 'waiting-credentials' && before.status !== 'waiting-credentials') {
			return `waiting for credentials from ${now.plugin}` +
				`${now.limitMs === undefined ? '' : ` (gives up after ${formatDurationWords(now.limitMs)})`}`;
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
