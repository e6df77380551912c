/**
 * Builders for KUDO scenario data: an OperatorVersion from a compact package description, an Instance status
 * from a compact description of step statuses (phases and plans are derived the way KUDO's engine derives
 * them), and a timeline that writes what the instance controller writes (kudobuilder/kudo@50ef7232
 * pkg/controller/instance/instance_controller.go).
 */
import type {KubeObject} from '../core/kube-object.js';
import type {PlayContext, ScenarioStep} from './scenario.js';

export const kudoApiVersion = 'kudo.dev/v1beta1';

export const executionStatuses = ['NEVER_RUN', 'PENDING', 'IN_PROGRESS', 'COMPLETE', 'ERROR', 'FATAL_ERROR'] as const;
export type ExecutionStatus = (typeof executionStatuses)[number];

export type KudoTask = {
	readonly name: string;
	readonly kind: 'Apply' | 'Delete' | 'Dummy' | 'Pipe' | 'Toggle' | 'KudoOperator';
	readonly spec: Readonly<Record<string, unknown>>;
};

export type KudoParameter = {
	readonly name: string;
	readonly displayName?: string;
	readonly description?: string;
	readonly required?: boolean;
	readonly default?: string;
	readonly trigger?: string;
	readonly immutable?: boolean;
};

export type KudoStrategy = 'serial' | 'parallel';
export type KudoStepDef = {readonly name: string; readonly tasks: readonly string[]};
export type KudoPhaseDef = {readonly name: string; readonly strategy: KudoStrategy; readonly steps: readonly KudoStepDef[]};
export type KudoPlanDef = {readonly strategy: KudoStrategy; readonly phases: readonly KudoPhaseDef[]};

/** What `kubectl kudo install` turns into an OperatorVersion (templates left out: plans are what we show). */
export type KudoPackage = {
	readonly operator: string;
	readonly version: string;
	readonly appVersion?: string;
	readonly tasks: readonly KudoTask[];
	readonly parameters: readonly KudoParameter[];
	readonly plans: Readonly<Record<string, KudoPlanDef>>;
};

/** `<operator>-<appVersion>-<version>` or `<operator>-<version>` (pkg/kudoctl/packages/convert/resources.go). */
export function operatorVersionName(pkg: KudoPackage): string {
	return pkg.appVersion ? `${pkg.operator}-${pkg.appVersion}-${pkg.version}` : `${pkg.operator}-${pkg.version}`;
}

export function operatorVersionObject(pkg: KudoPackage): KubeObject {
	return {
		apiVersion: kudoApiVersion,
		kind: 'OperatorVersion',
		metadata: {name: operatorVersionName(pkg)},
		spec: {
			operator: {kind: 'Operator', name: pkg.operator},
			version: pkg.version,
			...(pkg.appVersion ? {appVersion: pkg.appVersion} : {}),
			tasks: pkg.tasks,
			parameters: pkg.parameters,
			plans: pkg.plans,
		},
	};
}

/** Text that may name the namespace, only known at play time (fatal messages say `<ns>/<instance>`). */
export type Text = string | ((ctx: PlayContext) => string);

export function resolveText(text: Text, ctx: PlayContext): string {
	return typeof text === 'function' ? text(ctx) : text;
}

/** A step's status, with the message the engine sets for ERROR / FATAL_ERROR. */
export type StepState = ExecutionStatus | {readonly status: ExecutionStatus; readonly message: Text};

/** Step statuses keyed `<phase>.<step>`; steps not listed are PENDING (ResetPlanStatus). */
export type StepStates = Readonly<Record<string, StepState>>;

/** One plan's latest run as the controller last wrote it. Times are scenario offsets (ms). */
export type PlanRun = {
	readonly uid: string;
	readonly updatedAt: number;
	readonly steps: StepStates;
};

/** engine.go: "A transient error when executing task <plan>.<phase>.<step>.<task>. Will retry. <cause>". */
export function transientError(path: string, cause: string): string {
	return `A transient error when executing task ${path}. Will retry. ${cause}`;
}

/** engine.ExecutionError + task.fatalExecutionError: the only message a FATAL_ERROR carries (on the step). */
export function fatalError(instance: string, path: string, cause: string | ((namespace: string) => string)): Text {
	return ctx =>
		`Error during execution: fatal error: ${ctx.namespace}/${instance} failed in ${path}: ` +
		`${typeof cause === 'string' ? cause : cause(ctx.namespace)}`;
}

/** Every step of a plan in one status (e.g. a COMPLETE run in the history). */
export function allSteps(pkg: KudoPackage, plan: string, status: ExecutionStatus): StepStates {
	const out: Record<string, StepState> = {};
	for (const phase of planDef(pkg, plan).phases) {
		for (const step of phase.steps) {
			out[`${phase.name}.${step.name}`] = status;
		}
	}

	return out;
}

function planDef(pkg: KudoPackage, plan: string): KudoPlanDef {
	const def = pkg.plans[plan];
	if (!def) {
		throw new Error(`package ${pkg.operator} has no plan ${plan}`);
	}

	return def;
}

function stateOf(state: StepState | undefined): {status: ExecutionStatus; message?: Text} {
	if (state === undefined) {
		return {status: 'PENDING'};
	}

	return typeof state === 'string' ? {status: state} : state;
}

/** Aggregate children the way engine.Execute leaves them: fatal wins, then all complete, then touched. */
export function aggregate(children: readonly ExecutionStatus[]): ExecutionStatus {
	if (children.includes('FATAL_ERROR')) {
		return 'FATAL_ERROR';
	}

	if (children.every(s => s === 'COMPLETE')) {
		return 'COMPLETE';
	}

	return children.some(s => s !== 'PENDING') ? 'IN_PROGRESS' : 'PENDING';
}

/** Status of the plan a run's steps imply. A persisted run is never PENDING: Execute sets IN_PROGRESS first. */
export function runStatus(pkg: KudoPackage, plan: string, steps: StepStates): ExecutionStatus {
	const phases = planDef(pkg, plan).phases.map(phase =>
		aggregate(phase.steps.map(step => stateOf(steps[`${phase.name}.${step.name}`]).status)));
	const status = aggregate(phases);
	return status === 'PENDING' ? 'IN_PROGRESS' : status;
}

/** `status.planStatus[plan]`: NEVER_RUN everywhere without a run (ensurePlanStatusInitialized), else the run. */
export function planStatusEntry(pkg: KudoPackage, plan: string, run: PlanRun | undefined, ctx: PlayContext): Record<string, unknown> {
	const def = planDef(pkg, plan);
	if (!run) {
		return {
			name: plan,
			status: 'NEVER_RUN',
			phases: def.phases.map(phase => ({
				name: phase.name,
				status: 'NEVER_RUN',
				steps: phase.steps.map(step => ({name: step.name, status: 'NEVER_RUN'})),
			})),
		};
	}

	const phases = def.phases.map(phase => {
		const steps = phase.steps.map(step => {
			const state = stateOf(run.steps[`${phase.name}.${step.name}`]);
			return {
				name: step.name,
				status: state.status,
				...(state.message === undefined ? {} : {message: resolveText(state.message, ctx)}),
			};
		});
		return {name: phase.name, status: aggregate(steps.map(s => s.status)), steps};
	});
	return {
		name: plan,
		status: runStatus(pkg, plan, run.steps),
		lastUpdatedTimestamp: ctx.at(run.updatedAt),
		uid: run.uid,
		phases,
	};
}

export type ReadyCondition = {
	readonly status: 'True' | 'False' | 'Unknown';
	readonly reason: 'PlanInProgress' | 'PlanInFatalError' | 'ResourcesReady' | 'ResourceNotReady';
	/** Scenario offset of the last status change (meta.SetStatusCondition keeps it while status is unchanged). */
	readonly since: number;
};

/** The whole `status` of an Instance: every plan of the package, plus the Ready condition when set. */
export function instanceStatus(
	pkg: KudoPackage,
	runs: Readonly<Record<string, PlanRun>>,
	ready: ReadyCondition | undefined,
	ctx: PlayContext,
): Record<string, unknown> {
	const planStatus: Record<string, unknown> = {};
	for (const plan of Object.keys(pkg.plans).sort()) {
		planStatus[plan] = planStatusEntry(pkg, plan, runs[plan], ctx);
	}

	return {
		...(ready
			? {conditions: [{
				type: 'Ready',
				status: ready.status,
				reason: ready.reason,
				message: '',
				lastTransitionTime: ctx.at(ready.since),
			}]}
			: {}),
		planStatus,
	};
}

/** One frame of a run: at `at`, these steps changed (others keep their last status). */
export type RunFrame = {readonly at: number; readonly steps: StepStates};

export type KudoInstanceDef = {
	readonly name: string;
	readonly pkg: KudoPackage;
	readonly parameters?: Readonly<Record<string, string>>;
};

type PlanExecution = {planName?: string; uid?: string; status?: ExecutionStatus};

/** Plans whose scheduling flips Ready to PlanInProgress (instance_types_helpers.go). */
const readinessPlans = new Set(['deploy', 'update', 'upgrade']);

/**
 * The writes of one KUDO Instance over time. Methods append steps; `steps` returns them in play order.
 * Spec is always written before status at the same instant (updateInstance), as the real controller does.
 */
export class KudoInstanceTimeline {
	readonly #def: KudoInstanceDef;
	readonly #steps: ScenarioStep[] = [];
	#parameters: Record<string, string>;
	#planExecution: PlanExecution = {};
	#runs: Record<string, PlanRun> = {};
	#ready: ReadyCondition | undefined;

	constructor(def: KudoInstanceDef) {
		this.#def = def;
		this.#parameters = {...def.parameters};
	}

	get steps(): ScenarioStep[] {
		return this.#steps.map((step, i) => ({step, i})).sort((a, b) => a.step.at - b.step.at || a.i - b.i).map(({step}) => step);
	}

	/** `kubectl kudo install`: the webhook scheduled `deploy` with a fresh uid; the controller has not run yet. */
	install(at: number, deployUid: string): this {
		this.#planExecution = {planName: 'deploy', uid: deployUid, status: 'NEVER_RUN'};
		this.#push(at, 'create', this.#instance({spec: this.#spec()}));
		return this;
	}

	/** An Instance that was installed earlier and is idle: its past runs are in the status. */
	existing(at: number, history: Readonly<Record<string, {readonly uid: string; readonly endedAt: number}>>): this {
		this.#push(at, 'create', this.#instance({spec: this.#spec()}));
		let last = Number.NEGATIVE_INFINITY;
		for (const [plan, run] of Object.entries(history)) {
			this.#runs[plan] = {uid: run.uid, updatedAt: run.endedAt, steps: allSteps(this.#def.pkg, plan, 'COMPLETE')};
			last = Math.max(last, run.endedAt);
		}

		this.#ready = {status: 'True', reason: 'ResourcesReady', since: last};
		this.#writeStatus(at);
		return this;
	}

	/**
	 * A plan is scheduled: `kubectl kudo plan trigger` or a parameter with a `trigger`. The webhook stores the
	 * plan with a new uid and NEVER_RUN; the status keeps showing the previous run until the controller acts.
	 */
	trigger(at: number, plan: string, uid: string, parameters?: Readonly<Record<string, string>>): this {
		planDef(this.#def.pkg, plan);
		this.#parameters = {...this.#parameters, ...parameters};
		this.#planExecution = {planName: plan, uid, status: 'NEVER_RUN'};
		this.#writeSpec(at);
		return this;
	}

	/**
	 * The controller runs the scheduled plan. The first frame is the pick-up (uid copied into the plan status,
	 * PlanStarted), later frames change steps; while nothing changes the controller still rewrites
	 * lastUpdatedTimestamp about every `heartbeatMs`. When a frame makes the plan terminal, spec.planExecution is
	 * cleared (webhook, spec first) and the status is written with the final Ready condition.
	 */
	run(frames: readonly RunFrame[], options: {heartbeatMs?: number} = {}): this {
		const {planName: plan, uid} = this.#planExecution;
		if (!plan || !uid) {
			throw new Error(`${this.#def.name}: run() without a scheduled plan`);
		}

		const heartbeatMs = options.heartbeatMs ?? 1000;
		let steps: StepStates = {};
		let previousAt: number | undefined;
		for (const [index, frame] of frames.entries()) {
			if (previousAt !== undefined) {
				for (let t = previousAt + heartbeatMs; t < frame.at; t += heartbeatMs) {
					this.#runs[plan] = {...this.#runs[plan]!, updatedAt: t};
					this.#writeStatus(t);
				}
			}

			steps = index === 0 ? {...frame.steps} : {...steps, ...frame.steps};
			this.#runs[plan] = {uid, updatedAt: frame.at, steps};
			const status = runStatus(this.#def.pkg, plan, steps);
			if (index === 0) {
				this.#event(frame.at, 'Normal', 'PlanStarted', `Execution of plan ${plan} started`);
				if (readinessPlans.has(plan)) {
					this.#setReady(frame.at, 'Unknown', 'PlanInProgress');
				}
			}

			if (status === 'COMPLETE' || status === 'FATAL_ERROR') {
				if (index !== frames.length - 1) {
					throw new Error(`${this.#def.name}: plan ${plan} is terminal before its last frame`);
				}

				if (status === 'FATAL_ERROR') {
					const fatal = Object.values(steps).find(s => typeof s !== 'string' && s.status === 'FATAL_ERROR');
					const message = fatal && typeof fatal !== 'string' ? fatal.message : '';
					this.#event(frame.at, 'Warning', 'FailedTerminalStateError', message);
					this.#setReady(frame.at, 'Unknown', 'PlanInFatalError');
				} else {
					this.#setReady(frame.at, 'True', 'ResourcesReady');
				}

				this.#planExecution = {};
				this.#writeSpec(frame.at);
			} else if (index === 0) {
				this.#planExecution = {...this.#planExecution, status};
				this.#writeSpec(frame.at);
			}

			this.#writeStatus(frame.at);
			previousAt = frame.at;
		}

		return this;
	}

	delete(at: number): this {
		this.#push(at, 'delete', this.#instance({}));
		return this;
	}

	#setReady(at: number, status: ReadyCondition['status'], reason: ReadyCondition['reason']): void {
		const since = this.#ready && this.#ready.status === status ? this.#ready.since : at;
		this.#ready = {status, reason, since};
	}

	#spec(): Record<string, unknown> {
		return {
			operatorVersion: {name: operatorVersionName(this.#def.pkg)},
			...(Object.keys(this.#parameters).length > 0 ? {parameters: {...this.#parameters}} : {}),
			planExecution: {...this.#planExecution},
		};
	}

	#instance(body: Record<string, unknown>): KubeObject {
		return {
			apiVersion: kudoApiVersion,
			kind: 'Instance',
			metadata: {name: this.#def.name, labels: {'kudo.dev/operator': this.#def.pkg.operator}},
			...body,
		};
	}

	#writeSpec(at: number): void {
		this.#push(at, 'update', this.#instance({spec: this.#spec()}));
	}

	#writeStatus(at: number): void {
		const runs = {...this.#runs};
		const ready = this.#ready;
		const {pkg} = this.#def;
		this.#push(at, 'status', (ctx: PlayContext) => this.#instance({status: instanceStatus(pkg, runs, ready, ctx)}));
	}

	#event(at: number, type: 'Normal' | 'Warning', reason: string, message: Text): void {
		const name = this.#def.name;
		this.#push(at, 'event', (ctx: PlayContext) => ({
			apiVersion: 'v1',
			kind: 'Event',
			metadata: {},
			involvedObject: {apiVersion: kudoApiVersion, kind: 'Instance', name},
			reason,
			message: resolveText(message, ctx),
			type,
			source: {component: 'instance-controller'},
		}));
	}

	#push(at: number, op: ScenarioStep['op'], object: ScenarioStep['object']): void {
		const resource = op === 'event' ? 'Event' : 'Instance';
		this.#steps.push({at, op, resource, object});
	}
}

/** How long each step takes (`<phase>.<step>` → ms) and what goes wrong, for `plannedFrames`. */
export type RunPlan = {
	readonly durations: Readonly<Record<string, number>>;
	/** Transient errors: the step is ERROR from `afterMs` (since the step started) for `forMs`, then retried. */
	readonly errors?: Readonly<Record<string, {readonly afterMs: number; readonly forMs: number; readonly message: Text}>>;
	/** A fatal error `afterMs` into this step ends the run. */
	readonly fatal?: {readonly step: string; readonly afterMs: number; readonly message: Text};
};

/**
 * Frames of a run the way the engine schedules it: a serial plan/phase starts the next phase/step only when
 * the previous one is COMPLETE, a parallel one starts them all at once. Steps default to 3 s.
 */
export function plannedFrames(pkg: KudoPackage, plan: string, start: number, run: RunPlan): RunFrame[] {
	const changes = new Map<number, Record<string, StepState>>();
	const set = (at: number, key: string, state: StepState) => {
		const frame = changes.get(at) ?? {};
		frame[key] = state;
		changes.set(at, frame);
	};

	let end = Number.POSITIVE_INFINITY;
	const def = planDef(pkg, plan);
	let t = start;
	for (const phase of def.phases) {
		const phaseStart = def.strategy === 'serial' ? t : start;
		let cursor = phaseStart;
		let phaseEnd = phaseStart;
		for (const step of phase.steps) {
			const key = `${phase.name}.${step.name}`;
			const stepStart = phase.strategy === 'serial' ? cursor : phaseStart;
			let duration = run.durations[key] ?? 3000;
			set(stepStart, key, 'IN_PROGRESS');
			const error = run.errors?.[key];
			if (error) {
				set(stepStart + error.afterMs, key, {status: 'ERROR', message: error.message});
				set(stepStart + error.afterMs + error.forMs, key, 'IN_PROGRESS');
				duration = Math.max(duration, error.afterMs + error.forMs + 1000);
			}

			if (run.fatal?.step === key) {
				end = Math.min(end, stepStart + run.fatal.afterMs);
				set(stepStart + run.fatal.afterMs, key, {status: 'FATAL_ERROR', message: run.fatal.message});
				duration = Number.POSITIVE_INFINITY; // nothing after it starts
			} else {
				set(stepStart + duration, key, 'COMPLETE');
			}

			cursor = stepStart + duration;
			phaseEnd = Math.max(phaseEnd, cursor);
		}

		t = Math.max(t, phaseEnd);
	}

	return [...changes.entries()]
		.filter(([at]) => at <= end)
		.sort(([a], [b]) => a - b)
		.map(([at, steps]) => ({at, steps}));
}
