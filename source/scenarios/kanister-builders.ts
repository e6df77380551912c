/**
 * Builders for Kanister scenario data: a Blueprint from a compact description, and the timeline of one ActionSet
 * as the Kanister controller writes it (kanisterio/kanister@534f1523 pkg/controller/controller.go and
 * pkg/progress/action.go; see shared/docs/kudo-kanister-facts.md §2): init → running → each phase (running,
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
	return `v1alpha1.Phase{Name:"${name}", State:"pending", Output:map[string]interface {}(nil), Progress:v1alpha1.PhaseProgress{ProgressPercent:"", SizeDownloadedB:0, SizeUploadedB:0, EstimatedDownloadSizeB:0, EstimatedUploadSizeB:0, EstimatedTimeSeconds:0, LastTransitionTime:(*v1.Time)(nil)}}`;
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

	const steps: ScenarioStep[] = [];
	const spec = {
		actions: [{
			name: def.action,
			object: def.object,
			blueprint: def.blueprint.name,
			...(def.artifacts ? {artifacts: def.artifacts} : {}),
			profile: def.profile,
			preferredVersion: '',
		}],
	};
	const base = {apiVersion: kanisterApiVersion, kind: 'ActionSet', metadata: {name: def.name}};
	steps.push({at: run.at, op: 'create', resource: 'ActionSet', object: {...base, spec}});

	const status: Status = {
		state: 'pending',
		phases: action.phases.map(p => ({name: p.name, state: 'pending'})),
		deferPhase: action.deferPhase ? {name: action.deferPhase.name, state: 'pending'} : {name: '', state: ''},
		...(action.outputArtifacts ? {artifacts: action.outputArtifacts} : {}),
		error: '',
		runningPhase: '',
	};
	const write = (at: number) => {
		// Copies of the mutable parts; outputs and artifacts are immutable data (or builders).
		const snapshot: Status = {
			...status,
			phases: status.phases.map(p => ({...p})),
			deferPhase: {...status.deferPhase},
			...(status.percent ? {percent: {...status.percent}} : {}),
		};
		steps.push({
			at,
			op: 'status',
			resource: 'ActionSet',
			object: (ctx: PlayContext) => ({...base, spec, status: statusObject(def, snapshot, ctx)}),
		});
	};

	const event = (at: number, type: 'Normal' | 'Warning', reason: string, message: string, onBlueprint = false) => {
		const targets = onBlueprint ? [{kind: 'ActionSet', name: def.name}, {kind: 'Blueprint', name: def.blueprint.name}] : [{kind: 'ActionSet', name: def.name}];
		for (const target of targets) {
			steps.push({
				at,
				op: 'event',
				resource: 'Event',
				object: {
					apiVersion: 'v1',
					kind: 'Event',
					metadata: {},
					involvedObject: {apiVersion: kanisterApiVersion, kind: target.kind, name: target.name},
					reason,
					message,
					type,
					source: {component: 'Kanister Controller'},
				},
			});
		}
	};

	const recomputePercent = (at: number) => {
		const total = status.phases.reduce((sum, p) => sum + (p.progress ? Number.parseInt(p.progress.percent, 10) : 0), 0);
		const value = String(Math.floor(total / Math.max(1, status.phases.length)));
		if (status.percent?.value !== value) {
			status.percent = {value, since: at};
		}
	};

	// initActionSetStatus, then handleActionSet sets running before launching the action.
	let t = run.at + 300;
	write(t);
	t += 300;
	status.state = 'running';
	write(t);
	t += 100;
	const failedReason = `ActionSetFailed Action: ${def.action}`;
	event(t, 'Normal', 'Started Action', `Executing action ${def.action}`);

	if (run.launchFailure) {
		t += 200;
		event(t, 'Warning', failedReason, `Failed to launch Action ${def.name}: ${run.launchFailure}`, true);
		status.phases[0]!.state = 'failed';
		status.state = 'failed';
		status.runningPhase = '';
		status.error = run.launchFailure;
		write(t);
		return steps;
	}

	let coreFailed = false;
	for (const [i, phaseRun] of run.phases.entries()) {
		const phase = status.phases[i];
		if (!phase) {
			throw new Error(`${def.name}: more phase runs than blueprint phases`);
		}

		t += 100;
		event(t, 'Normal', 'Started Phase', `Executing phase ${phase.name}`);
		t += 100;
		status.runningPhase = phase.name;
		phase.state = 'running';
		write(t);
		const end = t + phaseRun.durationMs;
		// The poller writes only when the phase progress changes: functions report "0" until they finish.
		if (t + pollMs < end) {
			phase.progress = {percent: '0', at: t + pollMs};
			recomputePercent(t + pollMs);
			write(t + pollMs);
		}

		t = end;
		if (phaseRun.fail) {
			status.runningPhase = '';
			status.state = 'failed';
			status.error = phaseRun.fail;
			phase.state = 'failed';
			write(t);
			t += 50;
			event(t, 'Warning', failedReason, `Failed to execute phase: ${phaseDump(phase.name)}: ${phaseRun.fail}`, true);
			coreFailed = true;
			break;
		}

		phase.state = 'complete';
		phase.progress = {percent: '100', at: t};
		if (phaseRun.output) {
			phase.output = phaseRun.output;
		}

		recomputePercent(t);
		write(t);
		t += 50;
		event(t, 'Normal', 'Ended Phase', `Completed phase ${phase.name}`);
	}

	if (!coreFailed && run.phases.length !== status.phases.length) {
		throw new Error(`${def.name}: every phase must run unless one fails`);
	}

	let deferFailed = false;
	if (action.deferPhase && run.deferPhase) {
		const name = action.deferPhase.name;
		t += 100;
		// updateActionSetRunningPhase again, even after a failure; it never marks the deferPhase running.
		status.runningPhase = name;
		write(t);
		t += 50;
		event(t, 'Normal', 'Started deferPhase', `Executing deferPhase ${name}`);
		t += run.deferPhase.durationMs;
		if (run.deferPhase.fail) {
			status.runningPhase = '';
			status.state = 'failed';
			status.error = run.deferPhase.fail;
			status.deferPhase.state = 'failed';
			write(t);
			t += 50;
			event(t, 'Warning', failedReason, `Failed to execute defer phase: ${phaseDump(name)}: ${run.deferPhase.fail}`, true);
			deferFailed = true;
		} else {
			status.deferPhase.state = 'complete';
			if (run.deferPhase.output) {
				status.deferPhase.output = run.deferPhase.output;
			}

			write(t);
			t += 50;
			event(t, 'Normal', 'Ended deferPhase', `Completed deferPhase ${name}`);
		}
	}

	if (!coreFailed && !deferFailed) {
		// renderActionsetArtifacts + maybeSetActionSetStateComplete; the informer then reports "Update Complete".
		t += 100;
		if (status.artifacts) {
			if (!run.renderedArtifacts) {
				throw new Error(`${def.name}: a successful run of ${def.action} needs renderedArtifacts`);
			}

			status.artifacts = run.renderedArtifacts;
		}

		status.runningPhase = '';
		status.state = 'complete';
		write(t);
		t += 50;
		event(t, 'Normal', 'Update Complete', `Updated ActionSet '${def.name}' Status->complete`);
	}

	return steps;
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
