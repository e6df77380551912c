/**
 * Builders for Kanister scenario data: a Blueprint from a compact description, and the timeline of one ActionSet
 * as the Kanister controller writes it (kanisterio/kanister@534f1523 pkg/controller/controller.go and
 * pkg/progress/action.go): init → running → each phase (running,
 * 5 s progress poll, complete/failed) → deferPhase (state stays `pending` while it runs) → complete/failed,
 * with the controller's events.
 */
import type {KubeObject} from '../core/kube-object.js';
import type {PlayContext, ScenarioStep} from './scenario.js';

export const kanisterApiVersion = 'cr.kanister.io/v1alpha1';

export const kanisterStates = ['pending', 'running', 'failed', 'complete'] as const;
export type KanisterState = (typeof kanisterStates)[number];

export type BlueprintPhaseDef = {
	/** May be '' (upstream's postgres backup deferPhase has no name). */
	readonly name: string;
	readonly func: string;
	readonly args?: Readonly<Record<string, unknown>>;
	readonly objects?: Readonly<Record<string, unknown>>;
};

export type BlueprintActionDef = {
	readonly kind?: string;
	readonly inputArtifactNames?: readonly string[];
	/** Templates; copied unrendered into status until the action fully succeeds. */
	readonly outputArtifacts?: Readonly<Record<string, {readonly keyValue: Readonly<Record<string, string>>}>>;
	readonly phases: readonly BlueprintPhaseDef[];
	readonly deferPhase?: BlueprintPhaseDef;
};

export type BlueprintDef = {readonly name: string; readonly actions: Readonly<Record<string, BlueprintActionDef>>};

/** A Blueprint object: no spec or status, `actions` at the top level. Phase names stay as written. */
export function blueprintObject(def: BlueprintDef): KubeObject {
	const actions: Record<string, unknown> = {};
	for (const [name, action] of Object.entries(def.actions)) {
		actions[name] = {
			...(action.kind ? {kind: action.kind} : {}),
			...(action.inputArtifactNames ? {inputArtifactNames: action.inputArtifactNames} : {}),
			...(action.outputArtifacts ? {outputArtifacts: action.outputArtifacts} : {}),
			phases: action.phases.map(p => phaseObject(p)),
			...(action.deferPhase ? {deferPhase: phaseObject(action.deferPhase)} : {}),
		};
	}

	return {apiVersion: kanisterApiVersion, kind: 'Blueprint', metadata: {name: def.name}, actions};
}

function phaseObject(p: BlueprintPhaseDef): Record<string, unknown> {
	return {func: p.func, ...(p.name ? {name: p.name} : {}), ...(p.objects ? {objects: p.objects} : {}), ...(p.args ? {args: p.args} : {})};
}

/** Kanister's ObjectReference: every field but namespace is always serialized. */
export function objectRef(kind: string, namespace: string, name: string): Record<string, string> {
	return {apiVersion: '', group: '', resource: '', kind, name, namespace};
}

export type ActionSetDef = {
	readonly name: string;
	readonly blueprint: BlueprintDef;
	readonly action: string;
	/** The workload, e.g. objectRef('statefulset', 'mysql-test', 'mysql-release'). */
	readonly object: Readonly<Record<string, string>>;
	readonly profile: Readonly<Record<string, string>>;
	/** Input artifacts (restore from a backup). */
	readonly artifacts?: Readonly<Record<string, {readonly keyValue: Readonly<Record<string, string>>}>>;
};

/** A value fixed in the data, or computed at play time (outputs that hold timestamps). */
export type Dynamic<T> = T | ((ctx: PlayContext) => T);

type Artifacts = Readonly<Record<string, {readonly keyValue: Readonly<Record<string, string>>}>>;

/** How one phase (or the deferPhase) goes when played. */
export type PhaseRun = {
	readonly durationMs: number;
	readonly output?: Dynamic<Readonly<Record<string, unknown>>>;
	/** error.message as the controller stores it (core phases: with the errkit details prefix, e.g. `null: `). */
	readonly fail?: string;
};

export type ActionSetRun = {
	/** When the ActionSet is created (kanctl). */
	readonly at: number;
	/** Core phases in blueprint order; after a failed one the rest never run (leave them out). */
	readonly phases: readonly PhaseRun[];
	/** Required iff the blueprint action has a deferPhase. */
	readonly deferPhase?: PhaseRun;
	/** The action fails to launch (param.New / GetPhases): phases[0] failed, deferPhase never runs. */
	readonly launchFailure?: string;
	/** Output artifacts after full success (rendered templates). */
	readonly renderedArtifacts?: Dynamic<Artifacts>;
};

/** %#v of a v1alpha1.Phase as the controller's in-memory copy holds it (pending, no output, zero progress). */
export function phaseDump(name: string): string {
	return `v1alpha1.Phase{Name:"${name}", State:"pending", Output:map[string]interface {}(nil), ` +
		'Progress:v1alpha1.PhaseProgress{ProgressPercent:"", SizeDownloadedB:0, SizeUploadedB:0, EstimatedDownloadSizeB:0, ' +
		'EstimatedUploadSizeB:0, EstimatedTimeSeconds:0, LastTransitionTime:(*v1.Time)(nil)}}';
}

/** Progress poll period (pkg/progress/action.go pollDuration). */
export const pollMs = 5000;

type PhaseStatus = {
	name: string;
	state: KanisterState | '';
	output?: Dynamic<Readonly<Record<string, unknown>>>;
	/** progressPercent and the scenario offset it was polled at. */
	progress?: {percent: string; at: number};
};

type Status = {
	state: KanisterState;
	phases: PhaseStatus[];
	deferPhase: PhaseStatus;
	artifacts?: Dynamic<Artifacts>;
	error: string;
	runningPhase: string;
	/** undefined until the first percent is computed. */
	percent?: {value: string; since: number};
};

/** An Event the Kanister controller records about one of its objects. */
export function controllerEvent(
	at: number,
	about: {readonly kind: string; readonly name: string},
	type: 'Normal' | 'Warning',
	reason: string,
	message: string,
): ScenarioStep {
	return {
		at,
		op: 'event',
		resource: 'Event',
		object: {
			apiVersion: 'v1',
			kind: 'Event',
			metadata: {},
			involvedObject: {apiVersion: kanisterApiVersion, kind: about.kind, name: about.name},
			reason,
			message,
			type,
			source: {component: 'Kanister Controller'},
		},
	};
}

/** The steps of one ActionSet being written: its status as the controller holds it, and the time of the next write. */
class Timeline {
	readonly steps: ScenarioStep[] = [];
	readonly status: Status;
	readonly failedReason: string;
	t: number;
	readonly #def: ActionSetDef;
	readonly #base: {apiVersion: string; kind: string; metadata: {name: string}};
	readonly #spec: Record<string, unknown>;

	constructor(def: ActionSetDef, action: BlueprintActionDef, at: number) {
		this.#def = def;
		this.t = at;
		this.failedReason = `ActionSetFailed Action: ${def.action}`;
		this.#spec = {
			actions: [{
				name: def.action,
				object: def.object,
				blueprint: def.blueprint.name,
				...(def.artifacts ? {artifacts: def.artifacts} : {}),
				profile: def.profile,
				preferredVersion: '',
			}],
		};
		this.#base = {apiVersion: kanisterApiVersion, kind: 'ActionSet', metadata: {name: def.name}};
		this.steps.push({at, op: 'create', resource: 'ActionSet', object: {...this.#base, spec: this.#spec}});
		this.status = {
			state: 'pending',
			phases: action.phases.map(p => ({name: p.name, state: 'pending'})),
			deferPhase: action.deferPhase ? {name: action.deferPhase.name, state: 'pending'} : {name: '', state: ''},
			...(action.outputArtifacts ? {artifacts: action.outputArtifacts} : {}),
			error: '',
			runningPhase: '',
		};
	}

	/** A whole-object status write at `at` (default: now) of the status as it is now. */
	write(at = this.t): void {
		const {status} = this;
		// Copies of the mutable parts; outputs and artifacts are immutable data (or builders).
		const snapshot: Status = {
			...status,
			phases: status.phases.map(p => ({...p})),
			deferPhase: {...status.deferPhase},
			...(status.percent ? {percent: {...status.percent}} : {}),
		};
		const def = this.#def;
		const base = this.#base;
		const spec = this.#spec;
		this.steps.push({
			at,
			op: 'status',
			resource: 'ActionSet',
			object: (ctx: PlayContext) => ({...base, spec, status: statusObject(def, snapshot, ctx)}),
		});
	}

	/** A controller event about the ActionSet (and its Blueprint too, for failures). */
	event(type: 'Normal' | 'Warning', reason: string, message: string, onBlueprint = false): void {
		const targets = onBlueprint
			? [{kind: 'ActionSet', name: this.#def.name}, {kind: 'Blueprint', name: this.#def.blueprint.name}]
			: [{kind: 'ActionSet', name: this.#def.name}];
		for (const target of targets) {
			this.steps.push(controllerEvent(this.t, target, type, reason, message));
		}
	}

	/** The ActionSet's percent: the mean of its phases' progress, `since` moving only when it changes. */
	recomputePercent(at: number): void {
		const {status} = this;
		const total = status.phases.reduce((sum, p) => sum + (p.progress ? Number.parseInt(p.progress.percent, 10) : 0), 0);
		const value = String(Math.floor(total / Math.max(1, status.phases.length)));
		if (status.percent?.value !== value) {
			status.percent = {value, since: at};
		}
	}

	/** The run ends failed with `error`, the running phase cleared. */
	fail(error: string): void {
		this.status.runningPhase = '';
		this.status.state = 'failed';
		this.status.error = error;
	}
}

/**
 * The writes of one ActionSet over time (status writes are whole-object updates: no status subresource).
 * Returns the steps in play order.
 */
export function actionSetTimeline(def: ActionSetDef, run: ActionSetRun): ScenarioStep[] {
	const action = def.blueprint.actions[def.action];
	if (!action) {
		throw new Error(`blueprint ${def.blueprint.name} has no action ${def.action}`);
	}

	if (Boolean(action.deferPhase) !== Boolean(run.deferPhase) && !run.launchFailure) {
		throw new Error(`${def.name}: deferPhase run must be given iff the blueprint action has one`);
	}

	const timeline = new Timeline(def, action, run.at);
	// initActionSetStatus, then handleActionSet sets running before launching the action.
	timeline.t += 300;
	timeline.write();
	timeline.t += 300;
	timeline.status.state = 'running';
	timeline.write();
	timeline.t += 100;
	timeline.event('Normal', 'Started Action', `Executing action ${def.action}`);
	if (run.launchFailure) {
		timeline.t += 200;
		timeline.event('Warning', timeline.failedReason, `Failed to launch Action ${def.name}: ${run.launchFailure}`, true);
		timeline.status.phases[0]!.state = 'failed';
		timeline.fail(run.launchFailure);
		timeline.write();
		return timeline.steps;
	}

	const coreFailed = playCorePhases(timeline, def, run.phases);
	const deferFailed = action.deferPhase && run.deferPhase ? playDeferPhase(timeline, action.deferPhase.name, run.deferPhase) : false;
	if (!coreFailed && !deferFailed) {
		playComplete(timeline, def, run);
	}

	return timeline.steps;
}

/** The core phases in order until one fails; true when one failed. */
function playCorePhases(timeline: Timeline, def: ActionSetDef, runs: readonly PhaseRun[]): boolean {
	const {status} = timeline;
	for (const [i, phaseRun] of runs.entries()) {
		const phase = status.phases[i];
		if (!phase) {
			throw new Error(`${def.name}: more phase runs than blueprint phases`);
		}

		timeline.t += 100;
		timeline.event('Normal', 'Started Phase', `Executing phase ${phase.name}`);
		timeline.t += 100;
		status.runningPhase = phase.name;
		phase.state = 'running';
		timeline.write();
		const polled = timeline.t + pollMs;
		const end = timeline.t + phaseRun.durationMs;
		// The poller writes only when the phase progress changes: functions report "0" until they finish.
		if (polled < end) {
			phase.progress = {percent: '0', at: polled};
			timeline.recomputePercent(polled);
			timeline.write(polled);
		}

		timeline.t = end;
		if (phaseRun.fail) {
			timeline.fail(phaseRun.fail);
			phase.state = 'failed';
			timeline.write();
			timeline.t += 50;
			timeline.event('Warning', timeline.failedReason, `Failed to execute phase: ${phaseDump(phase.name)}: ${phaseRun.fail}`, true);
			return true;
		}

		phase.state = 'complete';
		phase.progress = {percent: '100', at: timeline.t};
		if (phaseRun.output) {
			phase.output = phaseRun.output;
		}

		timeline.recomputePercent(timeline.t);
		timeline.write();
		timeline.t += 50;
		timeline.event('Normal', 'Ended Phase', `Completed phase ${phase.name}`);
	}

	if (runs.length !== status.phases.length) {
		throw new Error(`${def.name}: every phase must run unless one fails`);
	}

	return false;
}

/** The deferPhase, run after the core phases whatever they did; true when it failed. */
function playDeferPhase(timeline: Timeline, name: string, run: PhaseRun): boolean {
	const {status} = timeline;
	timeline.t += 100;
	// updateActionSetRunningPhase again, even after a failure; it never marks the deferPhase running.
	status.runningPhase = name;
	timeline.write();
	timeline.t += 50;
	timeline.event('Normal', 'Started deferPhase', `Executing deferPhase ${name}`);
	timeline.t += run.durationMs;
	if (run.fail) {
		timeline.fail(run.fail);
		status.deferPhase.state = 'failed';
		timeline.write();
		timeline.t += 50;
		timeline.event('Warning', timeline.failedReason, `Failed to execute defer phase: ${phaseDump(name)}: ${run.fail}`, true);
		return true;
	}

	status.deferPhase.state = 'complete';
	if (run.output) {
		status.deferPhase.output = run.output;
	}

	timeline.write();
	timeline.t += 50;
	timeline.event('Normal', 'Ended deferPhase', `Completed deferPhase ${name}`);
	return false;
}

/** renderActionsetArtifacts + maybeSetActionSetStateComplete; the informer then reports "Update Complete". */
function playComplete(timeline: Timeline, def: ActionSetDef, run: ActionSetRun): void {
	const {status} = timeline;
	timeline.t += 100;
	if (status.artifacts) {
		if (!run.renderedArtifacts) {
			throw new Error(`${def.name}: a successful run of ${def.action} needs renderedArtifacts`);
		}

		status.artifacts = run.renderedArtifacts;
	}

	status.runningPhase = '';
	status.state = 'complete';
	timeline.write();
	timeline.t += 50;
	timeline.event('Normal', 'Update Complete', `Updated ActionSet '${def.name}' Status->complete`);
}

function resolve<T>(value: Dynamic<T>, ctx: PlayContext): T {
	return typeof value === 'function' ? (value as (ctx: PlayContext) => T)(ctx) : value;
}

function phaseJson(p: PhaseStatus, ctx: PlayContext): Record<string, unknown> {
	return {
		name: p.name,
		state: p.state,
		...(p.output ? {output: resolve(p.output, ctx)} : {}),
		progress: p.progress ? {progressPercent: p.progress.percent, lastTransitionTime: ctx.at(p.progress.at)} : {},
	};
}

function statusObject(def: ActionSetDef, s: Status, ctx: PlayContext): Record<string, unknown> {
	return {
		state: s.state,
		actions: [{
			name: def.action,
			object: def.object,
			blueprint: def.blueprint.name,
			phases: s.phases.map(p => phaseJson(p, ctx)),
			...(s.artifacts ? {artifacts: resolve(s.artifacts, ctx)} : {}),
			deferPhase: phaseJson(s.deferPhase, ctx),
		}],
		error: {message: s.error},
		progress: {
			...(s.runningPhase ? {runningPhase: s.runningPhase} : {}),
			...(s.percent ? {percentCompleted: s.percent.value, lastTransitionTime: ctx.at(s.percent.since)} : {}),
		},
	};
}
