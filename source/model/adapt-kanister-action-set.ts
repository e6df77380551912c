import {deletionOf} from './deletion.js';
import type {KubeObject} from '../core/kube-object.js';
import {SiblingIds} from './node-id.js';
import type {KanisterArtifacts, KanisterWaitFacts, NodeState, Outcome, PlanEvent, PlanNode, PlanObject} from './plan-tree.js';
import {flatValues, kanisterValues, type KanisterValues} from './kanister-values.js';
import {readKanisterEvents, type KanisterEventFacts} from './kanister-events.js';
import {isoTime, latestTime, rawString, readOnce, record, records, type RawRecord} from './read-raw.js';
import {maxMessageLength, maxNameLength, sanitizeLine} from './sanitize.js';
import {kanisterJobIdLabel} from './diagnosis.js';
import {kanisterState} from './status.js';

/*
 * Kanister ActionSet (+ Blueprints, + its Events) → PlanObject (kanisterio/kanister pkg/apis/cr/v1alpha1/types.go,
 * pkg/controller/controller.go):
 * - one `action` node per status.actions[i] (per spec.actions while there is no status), children = its phases
 *   in order, then the deferPhase (present iff deferPhase.state is non-empty; the name may be empty);
 * - the controller never writes `running` into deferPhase.state: it is running when pending, its own action's
 *   core phases have ended (kanisterio/kanister pkg/controller/controller.go runAction: the deferPhase runs in the
 *   goroutine's `defer`, after the phase loop), and either progress.runningPhase names it or more "Started
 *   deferPhase" events than finished deferPhases of that name (runningPhase and the events name only the phase,
 *   and every action may call its deferPhase `deferPhase`);
 * - a launch failure ("Failed to launch Action …", handleActionSet) starts no goroutine: that deferPhase never runs;
 * - `failed` with a deferPhase still pending is ambiguous (it may be about to run, or never will): outcome
 *   failed, but WaitFacts.deferPending lets the wait rule grant a grace period;
 * - `complete` is written by the first action whose core phases and deferPhase all succeeded once every core
 *   phase of every action is complete (maybeSetActionSetStateComplete): another action's deferPhase may still
 *   run, and fail, which rewrites the state to `failed`. Until those deferPhases end the outcome is running;
 * - `complete` with a core phase pending or running is invalid (pkg/validate/validate.go actionSetStatus):
 *   the outcome is unknown and the summary says what is inconsistent;
 * - phase start/end times only come from the "Started/Ended Phase" events;
 * - a phase's (and the deferPhase's) `output` is written with its `complete` state; an action's `artifacts` are the
 *   Blueprint's outputArtifacts templates (initialActionStatus) until the controller renders them, after the
 *   deferPhase and only when every phase succeeded (runAction's defer → renderActionsetArtifacts).
 */

type Phase = {
	readonly name: string;
	readonly state: string;
	readonly percent?: number;
	readonly updatedAt?: string;
	readonly output?: KanisterValues;
};
type Action = {
	readonly name: string;
	readonly detail: string;
	readonly blueprint: string;
	readonly phases: readonly Phase[];
	readonly defer: {readonly name: string; readonly state: string; readonly output?: KanisterValues};
	readonly artifacts?: KanisterValues;
	/** The phases come from status.actions (not named from the Blueprint for lack of a status). */
	readonly phasesFromStatus: boolean;
	/** The action (and so its deferPhase state) comes from status.actions, not from the spec and Blueprint. */
	readonly fromStatus: boolean;
};

const name = (v: unknown): string => sanitizeLine(v, maxNameLength);
const message = (v: unknown): string => sanitizeLine(v, maxMessageLength);
const stateWord = (v: unknown): string => sanitizeLine(v, 64);
export const deferNote = 'always runs';
export const deferNeverNote = 'never runs: the action failed to launch';
export const runningPerProgress = 'running per progress';
export const runningPerEvents = 'running per events';
export const skippedNote = 'skipped after failure';

function percentOf(value: unknown): number | undefined {
	const n = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
	return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : undefined;
}

/** `statefulset postgres-test/my-release` (Kanister's own ObjectReference; kanctl writes lower-case kinds). */
function objectDetail(value: unknown): string {
	return readDetail(record(value));
}

const readDetail = readOnce(new WeakMap<RawRecord, string>(), o => {
	const ns = name(o['namespace']);
	const n = name(o['name']);
	const kind = name(o['kind']) || name(o['resource']);
	const target = ns ? `${ns}/${n}` : n;
	return [kind, target].filter(Boolean).join(' ');
});

/** An output or artifacts map, read once per raw map (undefined: none). */
const valuesOf = (raw: unknown): KanisterValues | undefined => (
	typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? readValues(raw as RawRecord).values : undefined
);
const readValues = readOnce(new WeakMap<RawRecord, {readonly values: KanisterValues | undefined}>(), r => ({values: kanisterValues(r)}));

/** One phase of status.actions[i], read once per raw phase: an update of a running ActionSet changes one. */
const readStatusPhase = readOnce(new WeakMap<RawRecord, Phase>(), p => {
	const progress = record(p['progress']);
	const percent = percentOf(progress['progressPercent']);
	const updatedAt = isoTime(progress['lastTransitionTime']);
	const output = valuesOf(p['output']);
	return {
		name: name(p['name']),
		state: stateWord(p['state']),
		...(percent === undefined ? {} : {percent}),
		...(updatedAt ? {updatedAt} : {}),
		...(output ? {output} : {}),
	};
});

function readStatusAction(r: RawRecord): Action {
	const defer = record(r['deferPhase']);
	const deferOutput = valuesOf(defer['output']);
	const artifacts = valuesOf(r['artifacts']);
	return {
		name: name(r['name']),
		detail: objectDetail(r['object']),
		blueprint: name(r['blueprint']),
		phases: records(r['phases']).map(readStatusPhase),
		defer: {name: name(defer['name']), state: stateWord(defer['state']), ...(deferOutput ? {output: deferOutput} : {})},
		...(artifacts ? {artifacts} : {}),
		phasesFromStatus: true,
		fromStatus: true,
	};
}

/**
 * Rendered once the action succeeded and no value is a template any more: between the deferPhase's `complete` and
 * the controller's next write (renderActionsetArtifacts) the values are still `{{ … }}`.
 */
function artifactsOf(values: KanisterValues, state: NodeState): KanisterArtifacts {
	const templated = flatValues(values.values).some(v => v.value.includes('{{'));
	return {...values, rendered: state === 'succeeded' && !templated};
}

/** What initActionSetStatus would write, from the spec and the Blueprint: everything pending. */
function plannedAction(spec: RawRecord, blueprint: (n: string) => KubeObject | undefined): Action {
	const actionName = name(spec['name']);
	const bpName = name(spec['blueprint']);
	const bp = bpName ? blueprint(rawString(spec['blueprint'])) : undefined;
	const bpAction = record(record(bp?.['actions'])[rawString(spec['name'])]);
	const bpDefer = bpAction['deferPhase'];
	return {
		name: actionName,
		detail: objectDetail(spec['object']),
		blueprint: bpName,
		phases: records(bpAction['phases']).map(p => ({name: name(p['name']), state: 'pending'})),
		defer: typeof bpDefer === 'object' && bpDefer !== null
			? {name: name(record(bpDefer)['name']), state: 'pending'}
			: {name: '', state: ''},
		phasesFromStatus: false,
		fromStatus: false,
	};
}

/** Core-phase errors carry a JSON prefix of the error details since 0.114; `null: ` says nothing. */
function readableError(error: string): string {
	return error.startsWith('null: ') ? error.slice('null: '.length) : error;
}

function deferLabel(defer: {name: string}): string {
	return defer.name ? `deferPhase ${defer.name}` : 'deferPhase';
}

type Context = {
	readonly objectState: string;
	readonly hasStatus: boolean;
	readonly runningPhase: string;
	readonly events: KanisterEventFacts;
	readonly error: string;
	/** Which node status.error.message belongs to, when that is unambiguous. */
	readonly errorOwner?: {action: number; phase: number | 'defer'};
	/** No phase or deferPhase failed anywhere although the ActionSet failed (init, launch or artifact failure). */
	readonly failedWithoutNode: boolean;
	readonly objectPercent?: number;
	readonly single: boolean;
	/** deferPhase name → how many deferPhases of that name are complete or failed. */
	readonly deferFinished: ReadonlyMap<string, number>;
};

type Built = {node: PlanNode; summary: string; deferPending: boolean; deferRunning: boolean; running: boolean};

/** The action was never launched, or its controller predates deferPhases: its deferPhase will not run. */
function deferWillNotRun(action: Action, ctx: Context): boolean {
	return ctx.events.launchFailed.has(action.name) || ctx.events.legacyPhaseFailed.has(action.name);
}

/**
 * All core phases of the action ended: complete, or one failed (the later ones then never run), or one whose result
 * the controller could not write ("Failed to update phase": it stops the phases there, the state in the object is stale).
 */
function coreEnded(action: Action, ctx: Context): boolean {
	const stopped = action.phases.some(p => ctx.events.phaseUpdateFailed.has(`${action.name}/${p.name}`));
	const ended = stopped || action.phases.some(p => p.state === 'failed') || action.phases.every(p => p.state === 'complete');
	return action.phasesFromStatus && ended;
}

export const unrecordedPrefix = 'the controller could not record its result';

/** Why the deferPhase is running, or undefined when it is not (see the rules at the top). */
function deferRunReason(action: Action, ctx: Context): string | undefined {
	const d = action.defer;
	const over = ctx.events.deferFailed.has(action.name) || ctx.events.deferUpdateFailed.has(action.name);
	if (d.state !== 'pending' || !coreEnded(action, ctx) || deferWillNotRun(action, ctx) || over) {
		return undefined;
	}

	if (d.name !== '' && ctx.runningPhase === d.name) {
		return runningPerProgress;
	}

	const started = ctx.events.deferStartCount.get(d.name) ?? 0;
	return started > (ctx.deferFinished.get(d.name) ?? 0) ? runningPerEvents : undefined;
}

function buildAction(action: Action, index: number, ids: SiblingIds, ctx: Context): Built {
	const actionId = ids.next('action', action.name);
	const childIds = new SiblingIds(actionId);
	const failedAt = action.phases.findIndex(p => p.state === 'failed');
	const children: PlanNode[] = action.phases.map((phase, i) => {
		const label = phase.name || '(unnamed phase)';
		const started = ctx.events.phaseStarted.get(phase.name);
		const legacy = ctx.events.legacyPhaseFailed.get(action.name);
		const launch = i === 0 ? ctx.events.launchFailed.get(action.name) : undefined;
		const failure = ctx.events.phaseFailed.get(`${action.name}/${phase.name}`) ?? (legacy?.index === i ? legacy : undefined) ?? launch;
		const ended = ctx.events.phaseEnded.get(phase.name) ?? (phase.state === 'failed' ? failure?.time : undefined);
		let msg: string | undefined;
		if (phase.state === 'failed') {
			const owned = ctx.errorOwner?.action === index && ctx.errorOwner.phase === i;
			msg = owned ? ctx.error : failure?.error;
		}

		const unrecorded = ctx.events.phaseUpdateFailed.get(`${action.name}/${phase.name}`);
		if (unrecorded && phase.state !== 'complete') {
			msg ||= `${unrecordedPrefix}: ${unrecorded.error}`;
		}

		const note = failedAt !== -1 && i > failedAt && phase.state === 'pending' ? skippedNote : undefined;
		return {
			id: childIds.next('phase', label),
			kind: 'phase',
			name: label,
			status: phase.state,
			state: kanisterState(phase.state),
			...(msg ? {message: readableError(msg)} : {}),
			...(note ? {note} : {}),
			...(phase.updatedAt ? {updatedAt: phase.updatedAt} : {}),
			...(started ? {startedAt: started} : {}),
			...(ended ? {endedAt: ended} : {}),
			...(phase.percent === undefined ? {} : {percent: phase.percent}),
			...(phase.output ? {output: phase.output} : {}),
			children: [],
		};
	});

	const defer = action.defer;
	const hasDefer = defer.state !== '';
	const runReason = hasDefer ? deferRunReason(action, ctx) : undefined;
	const deferRunning = runReason !== undefined;
	const never = hasDefer && defer.state === 'pending' && deferWillNotRun(action, ctx);
	if (hasDefer) {
		const started = ctx.events.deferStarted.get(defer.name);
		const failure = ctx.events.deferFailed.get(action.name);
		const ended = ctx.events.deferEnded.get(defer.name) ?? (defer.state === 'failed' ? failure?.time : undefined);
		let msg: string | undefined;
		if (defer.state === 'failed') {
			msg = ctx.errorOwner?.action === index && ctx.errorOwner.phase === 'defer' ? ctx.error : failure?.error;
		}

		const unrecorded = ctx.events.deferUpdateFailed.get(action.name);
		if (unrecorded && defer.state !== 'complete') {
			msg ||= `${unrecordedPrefix}: ${unrecorded.error}`;
		}

		children.push({
			id: `${actionId}/deferPhase`,
			kind: 'deferPhase',
			name: defer.name || 'deferPhase',
			status: defer.state,
			state: deferRunning ? 'running' : kanisterState(defer.state),
			...(runReason ? {statusReason: runReason} : {}),
			...(msg ? {message: readableError(msg)} : {}),
			note: never ? deferNeverNote : deferNote,
			...(started && (deferRunning || defer.state !== 'pending') ? {startedAt: started} : {}),
			...(ended && !deferRunning && defer.state !== 'pending' ? {endedAt: ended} : {}),
			...(defer.output ? {output: defer.output} : {}),
			children: [],
		});
	}

	const core = children.filter(c => c.kind === 'phase');
	const percent =
		core.length === 0 ? undefined : Math.floor(core.reduce((sum, c) => sum + (c.percent ?? 0), 0) / core.length);
	const a = action.name || 'action';
	// The object's error, else what the events said went wrong outside the phases (artifacts, the final update).
	const actionError = ctx.error || ctx.events.actionFailed.get(action.name)?.error || '';
	const {state, status, summary} = actionVerdict({
		name: a,
		deferLabel: deferLabel(defer),
		core,
		deferNode: hasDefer ? children.at(-1) : undefined,
		deferRunning,
		never,
		phasesFromStatus: action.phasesFromStatus,
		percent: ctx.single && ctx.objectPercent !== undefined ? ctx.objectPercent : percent,
		context: {...ctx, error: actionError},
	});

	const actionStarted = ctx.events.actionStarted.get(action.name);
	// Only once every finished child has its end: a failed deferPhase gets its end from the ActionSetFailed event,
	// written after the status (the wait may end on the status), and the core phases' ends alone are too early.
	const finished = children.filter(c => c.state === 'succeeded' || c.state === 'failed');
	const endedAt = (state === 'succeeded' || state === 'failed') && finished.every(c => c.endedAt)
		? latestTime(...finished.map(c => c.endedAt))
		: undefined;
	const node: PlanNode = {
		id: actionId,
		kind: 'action',
		name: a,
		status,
		state,
		...(action.detail ? {detail: action.detail} : {}),
		...(state === 'failed' && ctx.failedWithoutNode && actionError ? {message: readableError(actionError)} : {}),
		...(actionStarted ? {startedAt: actionStarted} : {}),
		...(endedAt && actionStarted ? {endedAt} : {}),
		...(percent === undefined ? {} : {percent}),
		...(action.artifacts ? {artifacts: artifactsOf(action.artifacts, state)} : {}),
		children,
	};
	// Once there is a status, a deferPhase named from the Blueprint only (no status.actions) is nothing the controller said.
	const deferPending = defer.state === 'pending' && !never && (action.fromStatus || !ctx.hasStatus);
	return {node, summary, deferPending, deferRunning, running: state === 'running'};
}

/** What decides an action's verdict: its phase nodes, its deferPhase node and what the object says. */
export type ActionVerdictInput = {
	readonly name: string;
	/** How the deferPhase is named in summaries. */
	readonly deferLabel: string;
	readonly core: readonly PlanNode[];
	readonly deferNode: PlanNode | undefined;
	/** The deferPhase runs although its state still says pending (progress and events say so). */
	readonly deferRunning: boolean;
	/** The deferPhase is pending and will never run (the action failed to start). */
	readonly never: boolean;
	/** The phases come from status.actions (not only from the Blueprint). */
	readonly phasesFromStatus: boolean;
	/** The percent shown in running summaries. */
	readonly percent: number | undefined;
	readonly context: Pick<Context, 'hasStatus' | 'objectState' | 'failedWithoutNode' | 'error'>;
};

/**
 * The Kanister action verdict: the action node's state, its raw-word status and the one-line summary, from its
 * phases and deferPhase (first match wins: no status yet, inconsistent, running, deferPhase running, failed, …).
 */
export function actionVerdict(input: ActionVerdictInput): {readonly state: NodeState; readonly status: string; readonly summary: string} {
	const {name: a, deferLabel: dl, core, deferNode, deferRunning, never, percent: shownPercent, context: ctx} = input;
	const coreFailed = core.find(c => c.status === 'failed');
	const coreRunning = core.find(c => c.status === 'running');
	// No phases known (no status.actions, no Blueprint): nothing says the action is done unless the object does.
	const coreDone = core.length > 0 ? core.every(c => c.status === 'complete') : ctx.objectState === 'complete' && input.phasesFromStatus;
	const stuck = ctx.objectState === 'complete' ? core.find(c => c.status === 'pending' || c.status === 'running') : undefined;
	const deferDone = !deferNode || deferNode.status === 'complete';
	const withMessage = (text: string, m: string | undefined): string => (m ? `${text}: ${m}` : text);

	let state: NodeState;
	let status: string;
	let summary: string;
	if (!ctx.hasStatus) {
		[state, status, summary] = ['pending', 'pending', `${a} waiting for the controller to start it`];
	} else if (stuck && input.phasesFromStatus) {
		// pkg/validate/validate.go actionSetStatus: "ActionSet cannot be complete if any actions are not complete".
		[state, status] = ['unknown', 'inconsistent'];
		summary = `${a}: inconsistent status, ActionSet complete but phase ${stuck.name} is ${stuck.status}`;
	} else if (coreRunning) {
		[state, status] = ['running', 'running'];
		summary = `${a} running phase ${coreRunning.name}` + (shownPercent === undefined ? '' : ` (${Math.round(shownPercent)}%)`);
	} else if (deferRunning) {
		[state, status] = ['running', 'running'];
		summary = coreFailed ? `${a}: ${dl} running after failure in phase ${coreFailed.name}` : `${a}: all phases complete; ${dl} running`;
	} else if (coreFailed) {
		[state, status] = ['failed', 'failed'];
		const where = `${a} failed in phase ${coreFailed.name}`;
		if (deferNode?.status === 'complete') {
			summary = `${withMessage(where, coreFailed.message)}; ${dl} completed (cleanup ran)`;
		} else if (deferNode?.status === 'failed') {
			summary = `${where}; ${dl} failed too, see events`;
		} else if (never) {
			summary = `${withMessage(where, coreFailed.message)}; ${dl} will not run`;
		} else if (deferNode?.status === 'pending') {
			summary = `${withMessage(where, coreFailed.message)}; ${dl} has not started`;
		} else {
			summary = withMessage(where, coreFailed.message);
		}
	} else if (deferNode?.status === 'failed') {
		[state, status] = ['failed', 'failed'];
		summary = withMessage(coreDone ? `${a} completed but ${dl} failed` : `${a}: ${dl} failed`, deferNode.message);
	} else if (ctx.objectState === 'failed' && ctx.failedWithoutNode) {
		// Launch, template or artifact-rendering failures name no phase: the object's error is all there is.
		[state, status, summary] = ['failed', 'failed', withMessage(`${a} failed`, readableError(ctx.error))];
	} else if (coreDone && deferDone) {
		[state, status] = ['succeeded', 'complete'];
		summary = deferNode ? `${a} completed; ${dl} completed` : `${a} completed`;
	} else if (coreDone && deferNode?.status === 'pending' && ctx.objectState === 'complete' && !never) {
		// Another action set `complete`; this deferPhase is about to run (or never will: see the wait rule).
		[state, status, summary] = ['pending', 'pending', `${a}: all phases complete; ${dl} has not started`];
	} else if (core.some(c => c.state === 'unknown') || (deferNode && deferNode.state === 'unknown')) {
		const odd = [...core, ...(deferNode ? [deferNode] : [])].find(c => c.state === 'unknown')!;
		[state, status, summary] = ['unknown', odd.status, `${a}: ${odd.name} has unknown state ${odd.status || '(empty)'}`];
	} else if (ctx.objectState === 'running' && core.some(c => c.status === 'complete')) {
		// Between two phases: the next one has not been marked running yet.
		const next = core.find(c => c.status !== 'complete');
		[state, status] = ['running', 'running'];
		summary = next ? `${a} running, next phase ${next.name}` : `${a}: all phases complete`;
		if (shownPercent !== undefined) {
			summary += ` (${Math.round(shownPercent)}%)`;
		}
	} else if (ctx.objectState === 'running') {
		[state, status, summary] = ['running', 'running', `${a} starting`];
	} else {
		[state, status, summary] = ['pending', 'pending', `${a} pending`];
	}

	return {state, status, summary};
}

/** The node status.error.message belongs to, if exactly one node can have caused it. */
function errorOwnerOf(actions: readonly Action[]): {action: number; phase: number | 'defer'} | undefined {
	// A deferPhase failure is written last (it overwrites a core-phase error), so a failed defer owns the message.
	const defers = actions.flatMap((a, i) => (a.defer.state === 'failed' ? [i] : []));
	if (defers.length === 1) {
		return {action: defers[0]!, phase: 'defer'};
	}

	if (defers.length > 1) {
		return undefined;
	}

	const phases = actions.flatMap((a, i) => a.phases.flatMap((p, j) => (p.state === 'failed' ? [{action: i, phase: j}] : [])));
	return phases.length === 1 ? phases[0] : undefined;
}

function countFinishedDefers(actions: readonly Action[]): Map<string, number> {
	const out = new Map<string, number>();
	for (const a of actions) {
		if (a.defer.state === 'complete' || a.defer.state === 'failed') {
			out.set(a.defer.name, (out.get(a.defer.name) ?? 0) + 1);
		}
	}

	return out;
}

const kanisterStates = new Set(['pending', 'running', 'failed', 'complete']);

/**
 * Why Kanister's validation (kanisterio/kanister pkg/validate/validate.go, ActionSet, run by the controller before
 * it acts) rejects a status someone else wrote, in its own words; undefined when it passes. The controller then
 * does nothing with the ActionSet: it is not pending, it will never run. `complete` with a core phase not done is
 * the `inconsistent` case, kept apart. A `failed` ActionSet without actions is the controller's own
 * initActionSetStatus failure, not a rejection.
 */
function rejection(statusGiven: boolean, rawState: string, specActions: number, statusActions: readonly Action[]): string | undefined {
	if (!statusGiven || rawState === 'failed') {
		return undefined;
	}

	if (specActions !== statusActions.length) {
		return 'Number of actions in status actions and spec must match';
	}

	for (const a of statusActions) {
		let before: string | undefined;
		for (const p of a.phases) {
			if (before !== undefined && p.state !== 'pending') {
				return `Phases after a ${before} one must be pending`;
			}

			if (before === undefined && p.state !== 'complete') {
				before = p.state;
			}
		}
	}

	const unknown = statusActions.flatMap(a => a.phases).find(p => !kanisterStates.has(p.state));
	if (unknown) {
		return `Action has unknown state '${unknown.state}'`;
	}

	return kanisterStates.has(rawState) ? undefined : `ActionSet has unknown state '${rawState}'`;
}

/** The first core phase still pending or running in a `complete` ActionSet, as `phase P of action A`. */
function inconsistentPhase(actions: readonly Action[]): string | undefined {
	for (const a of actions) {
		const p = a.phasesFromStatus ? a.phases.find(x => x.state === 'pending' || x.state === 'running') : undefined;
		if (p) {
			return `phase ${p.name || '(unnamed phase)'} of action ${a.name || 'action'} is ${p.state}`;
		}
	}

	return undefined;
}

/** The actions to draw: the status's (phases named from the Blueprint when it has none), else the spec's. */
function resolveActions(
	statusActions: readonly Action[],
	specActions: ReadonlyArray<Record<string, unknown>>,
	initFailed: boolean,
	blueprint: (name: string) => KubeObject | undefined,
): Action[] {
	if (statusActions.length > 0) {
		return statusActions.map((a, i) => {
			if (a.phases.length > 0 || !specActions[i]) {
				return a;
			}

			// A status written without phases (or by hand): name them from the Blueprint.
			const planned = plannedAction(specActions[i], blueprint);
			return {...a, phases: planned.phases, phasesFromStatus: false};
		});
	}

	if (initFailed) {
		// Nothing was initialised: show the requested actions with the error, not phases that never existed.
		return specActions.map(s => plannedAction(s, () => undefined));
	}

	return specActions.map(s => plannedAction(s, blueprint));
}

export type ObjectVerdictInput = {
	readonly hasStatus: boolean;
	/** initActionSetStatus failed: no status actions although the spec has some. */
	readonly initFailed: boolean;
	/** status.state ('' without a status). */
	readonly rawState: string;
	readonly error: string;
	/** One summary per action. */
	readonly summaries: readonly string[];
	readonly deferRunning: boolean;
	readonly deferPending: boolean;
	/** Set when a `complete` ActionSet still has a core phase pending or running: what. */
	readonly inconsistent?: string;
};

/** The ActionSet's outcome, state and summary line from its status word and what its actions say. */
export function objectVerdict(input: ObjectVerdictInput): {outcome: Outcome; state: NodeState; summary: string} {
	const {hasStatus, initFailed, rawState, error, summaries, deferRunning, deferPending, inconsistent} = input;
	if (!hasStatus) {
		return {
			outcome: 'running',
			state: 'pending',
			summary: summaries.length > 0 ? summaries.join(' | ') : 'waiting for the controller to start it',
		};
	}

	if (initFailed || (rawState === 'failed' && summaries.length === 0)) {
		return {outcome: 'failed', state: 'failed', summary: `failed to start: ${readableError(error) || 'no error message'}`};
	}

	let outcome: Outcome;
	let state: NodeState;
	switch (rawState) {
		case 'pending':
		case 'running': {
			[outcome, state] = ['running', kanisterState(rawState)];
			break;
		}

		case 'complete': {
			// Another action's deferPhase may still run (and fail): complete is the end only once none can.
			[outcome, state] = inconsistent
				? ['unknown', 'unknown']
				: deferRunning || deferPending ? ['running', 'running'] : ['succeeded', 'succeeded'];
			break;
		}

		case 'failed': {
			// The deferPhase runs after the state is already failed: not over while it runs.
			[outcome, state] = deferRunning ? ['running', 'running'] : ['failed', 'failed'];
			break;
		}

		default: {
			[outcome, state] = ['unknown', 'unknown'];
		}
	}

	const summary = inconsistent
		? `inconsistent status: ActionSet complete but ${inconsistent}`
		: outcome === 'unknown'
			? `ActionSet has unknown state ${rawState}`
			: summaries.length > 0
				? summaries.join(' | ')
				: `ActionSet ${rawState} with no actions`;
	return {outcome, state, summary};
}

/** What the action nodes are built from and what was built (see ActionSetMemo). */
type ActionsRead = {
	readonly facts: KanisterEventFacts;
	readonly error: string;
	readonly deferRunning: boolean;
	readonly deferPending: boolean;
	readonly inconsistent: string | undefined;
	readonly rejected: string | undefined;
	readonly outcome: Outcome;
	readonly state: NodeState;
	readonly summary: string;
	readonly tree: readonly PlanNode[];
	readonly current: Built | undefined;
	readonly blueprints: readonly string[];
	readonly progressTimes: ReadonlyArray<string | undefined>;
};

/**
 * What one ActionSet's actions were last built from, and the nodes built: the caller keeps one per ActionSet and
 * hands it to each adaptation of it. An update that changes none of what the actions read (a new resourceVersion,
 * a new progress time: what most watch events of a running Kanister bring) then reuses the actions and their nodes,
 * the same objects, instead of building them again. The inputs are compared by identity: the raw `spec.actions` and
 * `status.actions` (the store keeps an unchanged part of a raw object the same object, compact-raw.ts
 * reuseUnchanged), the events array (replaced when they change), the Blueprints looked up, and the few words and
 * numbers of the status the nodes depend on.
 */
export class ActionSetMemo {
	#inputs: readonly unknown[] | undefined;
	#lookups: ReadonlyArray<readonly [string, KubeObject | undefined]> = [];
	#read: ActionsRead | undefined;
	/** How many times the actions were built (not reused). */
	builds = 0;

	/** What was read from `inputs` last time, if the inputs and the Blueprints looked up then are the same now. */
	reuse(inputs: readonly unknown[], blueprint: (name: string) => KubeObject | undefined): ActionsRead | undefined {
		const last = this.#inputs;
		if (!this.#read || last?.length !== inputs.length || inputs.some((v, i) => v !== last[i])) {
			return undefined;
		}

		return this.#lookups.every(([n, found]) => blueprint(n) === found) ? this.#read : undefined;
	}

	keep(inputs: readonly unknown[], lookups: ReadonlyArray<readonly [string, KubeObject | undefined]>, read: ActionsRead): void {
		this.#inputs = inputs;
		this.#lookups = lookups;
		this.#read = read;
		this.builds++;
	}
}

function readActions(
	actionSet: KubeObject,
	blueprint: (name: string) => KubeObject | undefined,
	events: readonly PlanEvent[],
	object: {readonly namespace: string; readonly objectName: string; readonly createdAt: string | undefined; readonly rawState: string},
	status: {
		readonly statusRaw: RawRecord;
		readonly statusGiven: boolean;
		readonly runningPhase: string;
		readonly objectPercent: number | undefined;
	},
): ActionsRead {
	const {namespace, objectName, createdAt, rawState} = object;
	const {statusRaw, statusGiven, runningPhase, objectPercent} = status;
	const hasStatus = rawState !== '';
	const specActions = records(record(actionSet['spec'])['actions']);
	const facts = readKanisterEvents(events, namespace, objectName, createdAt);
	// A failed ActionSet without an error message (a hand-written status, an old controller): the controller's Event.
	const ownError = message(record(statusRaw['error'])['message']);
	const error = ownError || (rawState === 'failed' ? (facts.objectError?.error ?? '') : '');
	const statusActions = records(statusRaw['actions']).map(r => readStatusAction(r));
	// initActionSetStatus failed (blueprint or action missing): status.actions stays empty while spec has actions.
	const initFailed = hasStatus && statusActions.length === 0 && specActions.length > 0 && rawState === 'failed';
	const actions = resolveActions(statusActions, specActions, initFailed, blueprint);

	const anyNodeFailed = actions.some(a => a.defer.state === 'failed' || a.phases.some(p => p.state === 'failed'));
	const errorOwner = errorOwnerOf(actions);
	const ctx: Context = {
		objectState: rawState,
		hasStatus,
		runningPhase,
		events: facts,
		error,
		...(errorOwner ? {errorOwner} : {}),
		failedWithoutNode: rawState === 'failed' && !anyNodeFailed,
		...(objectPercent === undefined ? {} : {objectPercent}),
		single: actions.length === 1,
		deferFinished: countFinishedDefers(actions),
	};
	const ids = new SiblingIds('');
	const built = actions.map((a, i) => buildAction(a, i, ids, ctx));
	const deferRunning = built.some(b => b.deferRunning);
	const deferPending = built.some(b => b.deferPending);
	const inconsistent = rawState === 'complete' ? inconsistentPhase(actions) : undefined;
	const rejected = rejection(statusGiven, rawState, specActions.length, statusActions);

	const verdict = objectVerdict({
		hasStatus,
		initFailed,
		rawState,
		error,
		summaries: built.map(b => b.summary),
		deferRunning,
		deferPending,
		inconsistent,
	});
	const {outcome, state, summary} = rejected
		? {
			outcome: 'unknown' as const,
			state: 'unknown' as const,
			summary: `rejected by Kanister's validation (pkg/validate): ${rejected}; the controller will not run it`,
		}
		: verdict;
	const tree = built.map(b => b.node);
	// The action the closing line names: the one still running, else (failed) the one that failed, not the first.
	const current = built.find(b => b.running) ??
		(outcome === 'failed' ? built.find(b => b.node.state === 'failed') : undefined) ??
		built[0];
	const blueprints = [...new Set(actions.map(a => a.blueprint).filter(Boolean))];
	const progressTimes = actions.flatMap(a => a.phases.map(p => p.updatedAt));
	return {
		facts, error, deferRunning, deferPending, inconsistent, rejected, outcome, state, summary, tree, current, blueprints, progressTimes,
	};
}

/**
 * ActionSet (+ Blueprints of its namespace, + its events) → PlanObject. Never throws on malformed input. `memo`:
 * the same ActionSet's last adaptation, whose actions and nodes are reused when nothing they read changed (the
 * result is the same as without it).
 */
export function adaptActionSet(
	actionSet: KubeObject,
	blueprint: (name: string) => KubeObject | undefined,
	events: readonly PlanEvent[],
	memo?: ActionSetMemo,
): PlanObject {
	const meta = record(actionSet.metadata);
	const namespace = name(meta['namespace']);
	const objectName = name(meta['name']);
	const createdAt = isoTime(meta['creationTimestamp']);
	const statusRaw = record(actionSet['status']);
	const rawState = stateWord(statusRaw['state']);
	const progress = record(statusRaw['progress']);
	const runningPhase = name(progress['runningPhase']);
	const objectPercent = percentOf(progress['percentCompleted']);
	const statusGiven = typeof actionSet['status'] === 'object' && actionSet['status'] !== null && !Array.isArray(actionSet['status']);
	const object = {namespace, objectName, createdAt, rawState};
	const status = {statusRaw, statusGiven, runningPhase, objectPercent};
	let read: ActionsRead;
	if (memo) {
		const inputs = [
			record(actionSet['spec'])['actions'],
			statusRaw['actions'],
			record(statusRaw['error'])['message'],
			// No events is the same input whichever empty array says it.
			events.length === 0 ? undefined : events,
			namespace,
			objectName,
			createdAt,
			rawState,
			runningPhase,
			objectPercent,
			statusGiven,
		];
		const reused = memo.reuse(inputs, blueprint);
		if (reused) {
			read = reused;
		} else {
			const lookups: Array<readonly [string, KubeObject | undefined]> = [];
			const recorded = (n: string): KubeObject | undefined => {
				const found = blueprint(n);
				lookups.push([n, found]);
				return found;
			};

			read = readActions(actionSet, recorded, events, object, status);
			memo.keep(inputs, lookups, read);
		}
	} else {
		read = readActions(actionSet, blueprint, events, object, status);
	}

	const {facts, error, deferRunning, deferPending, inconsistent, rejected, outcome, state, summary, tree, current, blueprints} = read;
	const {progressTimes} = read;
	const updatedAt = latestTime(isoTime(progress['lastTransitionTime']), ...progressTimes, facts.latest);
	const wait: KanisterWaitFacts = {
		kind: 'ActionSet',
		state: rawState,
		deferPending,
		deferRunning,
		...(inconsistent ? {inconsistent} : {}),
		...(rejected ? {rejected} : {}),
		runningPhase,
		...(updatedAt ?? createdAt ? {lastProgressAt: updatedAt ?? createdAt} : {}),
	};
	return {
		kind: 'ActionSet',
		namespace,
		name: objectName,
		...(rawString(meta['uid']) ? {uid: name(meta['uid'])} : {}),
		...(rawString(meta['resourceVersion']) ? {resourceVersion: name(meta['resourceVersion'])} : {}),
		...(rawString(record(meta['labels'])[kanisterJobIdLabel]) ? {jobId: name(record(meta['labels'])[kanisterJobIdLabel])} : {}),
		...(createdAt ? {createdAt} : {}),
		outcome,
		summary: sanitizeLine(summary, maxMessageLength),
		...(blueprints.length > 0 ? {version: blueprints.join(', ')} : {}),
		...(current ? {active: current.node.name} : {}),
		state,
		status: rawState || 'pending',
		...(objectPercent === undefined ? {} : {percent: objectPercent}),
		...(error ? {error} : {}),
		...(updatedAt ? {updatedAt} : {}),
		wait,
		...deletionOf(actionSet),
		tree,
	};
}
