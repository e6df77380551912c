/**
 * Scenarios are data: timelines of what the KUDO and Kanister controllers (and a user) write to the API server,
 * played by the demo source (an in-memory cluster) and by the e2e scenario player (a real kube-apiserver).
 *
 * How a player uses a scenario:
 * 1. Sort nothing: `objects` is already in play order (sorted by `at`, stable). Steps with equal `at` are applied
 *    in array order (e.g. KUDO writes spec before status).
 * 2. Pick a start time and a speed; a step is due at `start + at / speed`.
 * 3. For each due step, `materialize(step, ctx)` gives the object to write (functions are called, the namespace is
 *    filled in, the result is a fresh copy the player may keep), then apply it by `op`:
 *    - `create`: create the object (OperatorVersion, Blueprint, Instance or ActionSet; never with a status).
 *    - `status`: replace the WHOLE `.status` of the named object with `object.status`. KUDO Instance: through the
 *      status subresource (`/status`); Kanister ActionSet (no status subresource): GET, set status, PUT the whole
 *      object with its resourceVersion, retry on 409, like Kanister's `reconcile.ActionSet`.
 *    - `update`: replace the WHOLE `.spec` of the named object with `object.spec` (e.g. KUDO spec.planExecution).
 *    - `delete`: delete the named object.
 *    - `event`: create a core/v1 Event; `completeEvent` fills its name, timestamps, count and involvedObject
 *      namespace/uid the way an event recorder would.
 *    - `log`: lines a container of the named Pod writes (`logStep`): the demo hands them on as a kubelet's log
 *      would be read; a player without a kubelet has nowhere to write them and skips the step.
 * Objects carry no server-owned metadata (uid, resourceVersion, generation, creationTimestamp): the server (or
 * the simulated cluster) sets those.
 */
import type {KubeObject, ResourceKind} from '../core/kube-object.js';

/** What a step function may ask of the player at play time. */
export type PlayContext = {
	/** Namespace the player puts every object in. */
	readonly namespace: string;
	/** The player's current time as a controller would write it (RFC 3339, whole seconds). */
	now(): string;
	/** Time of a scenario offset (ms since start at speed 1) mapped through the player's start and speed. */
	at(offsetMs: number): string;
};

export type StepOp = 'create' | 'status' | 'update' | 'delete' | 'event' | 'log';

/** A literal object, or a builder called at play time (timestamps, namespace). */
export type StepObject = KubeObject | ((ctx: PlayContext) => KubeObject);

export type ScenarioStep = {
	/** Milliseconds since the scenario start, at speed 1. */
	readonly at: number;
	readonly op: StepOp;
	readonly resource: ResourceKind;
	readonly object: StepObject;
};

export type Scenario = {
	/** Identifier used by `--scenario` (kebab-case). */
	readonly name: string;
	/** One line for `--help` and the demo header. */
	readonly title: string;
	/** What happens, in a few sentences. */
	readonly description: string;
	/** The timeline, in play order. */
	readonly objects: readonly ScenarioStep[];
};

/** RFC 3339 with whole seconds and `Z`, as metav1.Time serializes. */
export function isoSeconds(ms: number): string {
	return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A PlayContext for a player that started at `startMs` (its clock) and plays at `speed`. */
export function playContext(options: {namespace: string; startMs: number; speed: number; now: () => number}): PlayContext {
	return {
		namespace: options.namespace,
		now: () => isoSeconds(options.now()),
		at: (offsetMs: number) => isoSeconds(options.startMs + (offsetMs / options.speed)),
	};
}

/** When a step is due on the player's clock. */
export function dueAt(step: ScenarioStep, startMs: number, speed: number): number {
	return startMs + (step.at / speed);
}

/** The object a step writes: a fresh copy with the namespace filled in (events: involvedObject too). */
export function materialize(step: ScenarioStep, ctx: PlayContext): KubeObject {
	const built = typeof step.object === 'function' ? step.object(ctx) : step.object;
	const object = structuredClone(built);
	object.metadata = {...object.metadata, namespace: ctx.namespace};
	if (step.op === 'event') {
		const involved = (object['involvedObject'] ?? {}) as Record<string, unknown>;
		object['involvedObject'] = {...involved, namespace: ctx.namespace};
	}

	return object;
}

/**
 * Fill what an event recorder fills: a unique name, both timestamps, count 1, the involved object's uid when the
 * player knows it. `time` is an ISO timestamp (the player's now).
 */
export function completeEvent(event: KubeObject, fill: {name: string; time: string; involvedUid?: string}): KubeObject {
	const involved = (event['involvedObject'] ?? {}) as Record<string, unknown>;
	return {
		...event,
		metadata: {...event.metadata, name: fill.name},
		involvedObject: fill.involvedUid ? {...involved, uid: fill.involvedUid} : involved,
		firstTimestamp: fill.time,
		lastTimestamp: fill.time,
		count: 1,
		reportingComponent: '',
		reportingInstance: '',
	};
}

/** Offset of the last step: how long the scenario runs at speed 1. */
export function scenarioDuration(scenario: Scenario): number {
	return scenario.objects.reduce((end, step) => Math.max(end, step.at), 0);
}

/** The Instances and ActionSets a scenario creates, as `{kind, name}` (what a demo --wait waits for). */
export function scenarioTargets(
	scenario: Scenario,
	namespace: string,
): Array<{kind: 'Instance' | 'ActionSet'; namespace: string; name: string}> {
	const ctx = playContext({namespace, startMs: 0, speed: 1, now: () => 0});
	const seen = new Map<string, {kind: 'Instance' | 'ActionSet'; namespace: string; name: string}>();
	for (const step of scenario.objects) {
		if (step.op === 'create' && (step.resource === 'Instance' || step.resource === 'ActionSet')) {
			const name = materialize(step, ctx).metadata?.name ?? '';
			seen.set(`${step.resource}/${name}`, {kind: step.resource, namespace, name});
		}
	}

	return [...seen.values()];
}

/**
 * A `log` step: `text` written by `container` of pod `pod` (the previous instance's log when `previous`; `reset`:
 * a new read, as after a restart, replaces what was read before).
 */
export function logStep(
	at: number,
	log: {readonly pod: string; readonly container: string; readonly text: string; readonly previous?: boolean; readonly reset?: boolean},
): ScenarioStep {
	const object = {
		apiVersion: 'v1',
		kind: 'PodLog',
		metadata: {name: log.pod},
		container: log.container,
		previous: log.previous === true,
		reset: log.reset === true,
		text: log.text,
	};
	return {at, op: 'log', resource: 'Pod', object};
}

/** What a `log` step's object says. */
export function logOf(object: KubeObject): {
	readonly namespace: string;
	readonly pod: string;
	readonly container: string;
	readonly previous: boolean;
	readonly text: string;
	readonly reset?: true;
} {
	return {
		...(object['reset'] === true ? {reset: true as const} : {}),
		namespace: object.metadata?.namespace ?? '',
		pod: object.metadata?.name ?? '',
		container: typeof object['container'] === 'string' ? object['container'] : '',
		previous: object['previous'] === true,
		text: typeof object['text'] === 'string' ? object['text'] : '',
	};
}
