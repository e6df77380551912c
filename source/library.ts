/**
 * The library's body (source/index.ts is its entry: it checks the Node version, then loads this). planwatch as a
 * library: watch KUDO Instances and Kanister ActionSets as plan trees, or wait for them to finish,
 * without the CLI. Everything here reads the cluster only (list + watch), like the CLI.
 *
 * ```ts
 * import {waitForPlan, watchPlans} from 'planwatch';
 * const result = await waitForPlan({targets: ['instance/mysql-instance'], namespace: 'prod', timeout: '10m'});
 * if (result.exitCode !== 0) console.error(result.message);
 * for await (const snapshot of watchPlans({namespace: 'kanister', signal})) console.log(snapshot.objects.map(o => o.summary));
 * ```
 */
import {createClusterSource} from './sources/cluster-source.js';
import {exitCodes, outcomeOfExitCode, type ExitCode, type RunOutcome} from './core/exit-codes.js';
import {exitCodeOf, PlanwatchError} from './core/errors.js';
import {loadKubeconfig} from './kube/kubeconfig.js';
import type {ConnectionState, ObjectSource} from './state/object-source.js';
import {kindOfWord, parseTarget, TargetError, type KindWord, type Target, type TargetKind} from './model/targets.js';
import {objectKey, type PlanEvent, type PlanObject} from './model/plan-tree.js';
import {SystemClock, type Clock} from './core/clock.js';
import {openSession} from './state/session.js';
import type {Store, StoreSnapshot} from './state/store.js';
import {createWaitController} from './state/wait-controller.js';
import {parseDuration} from './model/parse-duration.js';

export type {KanisterArtifacts, PlanEvent, PlanNode, PlanObject, NodeState, NodeKind, Outcome, ObjectKind} from './model/plan-tree.js';
/** A Kanister phase's `output` and an action's `artifacts` (PlanNode.output, PlanNode.artifacts): sanitized, bounded. */
export type {KanisterValue, KanisterValues} from './model/kanister-values.js';
export type {ConnectionState, ObjectSource, SourceEvent} from './state/object-source.js';
export type {KubeObject} from './core/kube-object.js';
export {PlanwatchError} from './core/errors.js';
export type {ExitCode, RunOutcome} from './core/exit-codes.js';
export type {KindWord} from './model/targets.js';

/** One kind, as the CLI's `planwatch actionsets`: the kind itself or any word kubectl users type for it. */
export type PlanKind = TargetKind | KindWord;

export type PlanWatchOptions = {
	/** `instance/NAME` or `actionset/NAME` (kubectl-style aliases accepted). Empty: every object in scope. */
	readonly targets?: readonly string[];
	/** Path of a kubeconfig file (default: KUBECONFIG, then ~/.kube/config, then in-cluster). */
	readonly kubeconfig?: string;
	readonly context?: string;
	/** Default: the context's namespace, else `default`. */
	readonly namespace?: string;
	readonly allNamespaces?: boolean;
	/** Label selector for Instances and ActionSets. */
	readonly selector?: string;
	/**
	 * Only this kind (the CLI's `planwatch actionsets -A`): without targets, every object of it in scope; with
	 * targets, they may be bare names of it (`{kind: 'instances', targets: ['mysql']}`).
	 */
	readonly kind?: PlanKind;
	/** Stops the watch (watchPlans ends) or the wait (waitForPlan resolves with exit code 130). */
	readonly signal?: AbortSignal;
	/** Another source of objects instead of the cluster (files, the demo, a test double). */
	readonly source?: ObjectSource;
	readonly clock?: Clock;
};

/** What watchPlans yields: every watched object as a plan tree, plus connection facts. */
export type PlanSnapshot = {
	readonly objects: readonly PlanObject[];
	readonly events: ReadonlyMap<string, readonly PlanEvent[]>;
	readonly connection: ConnectionState;
	/** Every watched resource has been listed once. */
	readonly synced: boolean;
};

export type WaitForPlanOptions = PlanWatchOptions & {
	/** A Go-style duration ('45s', '10m', '1h30m') or milliseconds; 0 or absent: no timeout. */
	readonly timeout?: string | number;
	/**
	 * A KUDO plan name (the CLI's `--plan`): each Instance is done when this plan is — its run triggered after the
	 * wait began, else its latest run; a plan that never ran is waited for.
	 */
	readonly plan?: string;
};

export type WaitForPlanResult = {
	/** 0 succeeded, 1 failed, 2 bad input, 3 timed out, 4 cluster error, 130 aborted (141 is the CLI's closed pipe). Same as the CLI. */
	readonly exitCode: ExitCode;
	readonly outcome: RunOutcome;
	/** One line per object (or the error). */
	readonly message: string;
	/** The objects as they were when the wait ended. */
	readonly objects: readonly PlanObject[];
};

type Started = {store: Store; source: ObjectSource; clock: Clock; targetKeys: string[]; kind: TargetKind | undefined};

/** `kind` as a TargetKind; a bad one (from JavaScript) is a usage error, as on the command line. */
function kindOf(kind: PlanKind | undefined): TargetKind | undefined {
	if (kind === undefined || kind === 'Instance' || kind === 'ActionSet') {
		return kind;
	}

	const found = typeof kind === 'string' ? kindOfWord(kind) : undefined;
	if (found === undefined) {
		throw new TargetError(`unknown kind "${String(kind)}": use Instance, ActionSet or a kubectl name for one (instances, as, ...)`);
	}

	return found;
}

/** The targets, bare names taken as `kind`'s; a target of another kind is a usage error. */
function targetsOf(texts: readonly string[], kind: TargetKind | undefined): Target[] {
	return texts.map(text => {
		const prefix = kind === 'Instance' ? 'instance/' : 'actionset/';
		const target = parseTarget(kind !== undefined && !text.includes('/') ? prefix + text : text);
		if (kind !== undefined && target.kind !== kind) {
			throw new TargetError(`target "${text}" is not of the kind ${kind}`);
		}

		return target;
	});
}

function start(options: PlanWatchOptions): Started {
	const clock = options.clock ?? new SystemClock();
	const kind = kindOf(options.kind);
	const targets = targetsOf(options.targets ?? [], kind);
	let source = options.source;
	let namespace = options.namespace ?? 'default';
	if (!source) {
		const kubeconfig = loadKubeconfig({kubeconfig: options.kubeconfig, context: options.context, namespace: options.namespace});
		namespace = kubeconfig.namespace;
		source = createClusterSource({
			kubeconfig,
			namespace: options.allNamespaces ? undefined : namespace,
			selector: options.selector,
			targets,
			kinds: kind ? [kind] : [],
			clock,
		});
	}

	const session = openSession(source, clock);
	session.start();
	const {store} = session;
	const targetKeys = targets.map(t => objectKey({kind: t.kind, namespace, name: t.name}));
	return {store, source, clock, targetKeys, kind};
}

function toPlanSnapshot(s: StoreSnapshot, targetKeys: readonly string[], kind: TargetKind | undefined): PlanSnapshot {
	const wanted = new Set(targetKeys);
	// A source given in the options may hold both kinds: `kind` is applied here too.
	const ofKind = kind === undefined ? s.objects : s.objects.filter(o => o.kind === kind);
	return {
		objects: wanted.size === 0 ? ofKind : ofKind.filter(o => wanted.has(objectKey(o))),
		events: s.events,
		connection: s.connection,
		synced: s.synced,
	};
}

/**
 * An async iterator of plan-tree snapshots: one after the first complete list, then one per change (coalesced:
 * a slow consumer gets the latest picture, never a backlog). Ends when `signal` aborts or the consumer breaks;
 * throws a one-line PlanwatchError carrying the exit code on a fatal cluster error (RBAC, CRD not installed, not found).
 */
export async function * watchPlans(options: PlanWatchOptions = {}): AsyncGenerator<PlanSnapshot, void, undefined> {
	const {store, source, targetKeys, kind} = start(options);
	let wake: (() => void) | undefined;
	let lastVersion = -1;
	const unsubscribe = store.subscribe(() => wake?.());
	const onAbort = (): void => wake?.();
	options.signal?.addEventListener('abort', onAbort);
	try {
		while (!options.signal?.aborted) {
			const snap = store.getSnapshot();
			if (snap.fatal) {
				throw new PlanwatchError(snap.fatal.message, snap.fatal.exitCode);
			}

			if (snap.synced && snap.version !== lastVersion) {
				lastVersion = snap.version;
				yield toPlanSnapshot(snap, targetKeys, kind);
				continue;
			}

			await new Promise<void>(resolve => {
				wake = resolve;
			});
			wake = undefined;
		}
	} finally {
		unsubscribe();
		options.signal?.removeEventListener('abort', onAbort);
		await source.stop();
	}
}

/**
 * Wait for the targets (or everything in scope) to finish, with the CLI's rules: KUDO COMPLETE → 0, FATAL_ERROR
 * → 1 at once, ERROR keeps waiting; a triggered plan not yet picked up is waited for; Kanister waits for the
 * deferPhase too. Never rejects: errors come back as a result with their exit code.
 */
export async function waitForPlan(options: WaitForPlanOptions = {}): Promise<WaitForPlanResult> {
	let started: Started;
	try {
		started = start(options);
	} catch (error) {
		const exitCode = exitCodeOf(error);
		return {
			exitCode,
			outcome: outcomeOfExitCode[exitCode],
			message: error instanceof Error ? error.message : String(error),
			objects: [],
		};
	}

	const {store, source, clock, targetKeys, kind} = started;
	const timeoutMs = typeof options.timeout === 'string' ? parseDuration(options.timeout) : (options.timeout ?? 0);
	if (timeoutMs === undefined || timeoutMs < 0) {
		await source.stop();
		return {
			exitCode: exitCodes.usage,
			outcome: outcomeOfExitCode[exitCodes.usage],
			message: `invalid timeout "${String(options.timeout)}" (use e.g. 45s, 5m, 1h30m; 0 = none)`,
			objects: [],
		};
	}

	const controller = createWaitController({
		store,
		clock,
		wait: true,
		targets: targetKeys,
		timeoutMs,
		extendMs: 0,
		graceMs: 0,
		...(options.plan === undefined ? {} : {plan: options.plan}),
	});
	const onAbort = (): void => {
		controller.quit();
	};

	if (options.signal?.aborted) {
		onAbort();
	}

	options.signal?.addEventListener('abort', onAbort);
	const result = await controller.done;
	options.signal?.removeEventListener('abort', onAbort);
	await source.stop();
	return {
		exitCode: result.exitCode,
		outcome: outcomeOfExitCode[result.exitCode],
		message: result.message,
		objects: toPlanSnapshot(store.getSnapshot(), targetKeys, kind).objects,
	};
}
