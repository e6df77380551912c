import {deletionOf} from './deletion.js';
import type {KubeObject} from '../core/kube-object.js';
import {SiblingIds} from './node-id.js';
import {
	lastRun,
	plannedStart,
	readKudoEvents,
	startedWhileWatched,
	watchedRunStart,
	type KudoRunMemory,
	type LastRun,
} from './kudo-plan-order.js';
import type {KudoWaitFacts, NodeState, Outcome, PlanEvent, PlanNode, PlanObject} from './plan-tree.js';
import {isoTime, latestTime, rawString, readOnce, record, records, timeValue, type RawRecord} from './read-raw.js';
import {sameFieldsExcept} from './same-fields.js';
import {maxMessageLength, maxNameLength, sanitizeLine} from './sanitize.js';
import {kudoState} from './status.js';

/*
 * KUDO Instance (+ its OperatorVersion) → PlanObject (kudobuilder/kudo pkg/apis/kudo/v1beta1/instance_types.go,
 * pkg/controller/instance/instance_controller.go):
 * - every plan of status.planStatus and of the OperatorVersion, sorted by name like `kubectl kudo plan status`;
 *   plans, phases and steps known only from the OperatorVersion are NEVER_RUN (state inactive);
 * - active plan = spec.planExecution.planName, else the plan that ran last by what the cluster records of order
 *   (kudo-plan-order.ts: a running plan, a later lastUpdatedTimestamp, starts seen while watching, the manager's
 *   Events); when that cannot be decided, the worst of the tied plans, and the summary says the order is unknown;
 *   the other plans keep the status of their previous run but are `active: false`;
 * - a plan's start comes from its `PlanStarted` Event when planwatch did not see the run start itself, its end
 *   (of a finished plan) from lastUpdatedTimestamp;
 * - scheduled but not picked up (spec.planExecution.uid differs from the plan status uid) = queued: the plan node
 *   reads QUEUED, pending, with a note;
 * - strategies come from the OperatorVersion (phase strategy looked up inside the same plan);
 * - a terminal plan (COMPLETE, FATAL_ERROR) stops the engine (kudobuilder/kudo pkg/engine/workflow/engine.go
 *   returns on a fatal error): phases and steps it left PENDING/IN_PROGRESS/ERROR are `stopped`, not running;
 * - a plan whose own status is empty while its phases or steps have one (trimmed objects) takes its state from
 *   them, and says the plan status was missing.
 */

type Step = {readonly name: string; readonly status: string; readonly message: string};
type Phase = {readonly name: string; readonly status: string; readonly message: string; readonly steps: readonly Step[]};
type PlanStatus = {
	/** The plan's status, or the one derived from its phases when the plan's own is empty. */
	readonly status: string;
	/** The plan's status as written ('' when missing). */
	readonly rawStatus: string;
	readonly message: string;
	readonly updatedAt?: string;
	readonly uid: string;
	readonly phases: readonly Phase[];
};
type OvPhase = {readonly name: string; readonly strategy: string; readonly steps: readonly string[]};
type OvPlan = {readonly strategy: string; readonly phases: readonly OvPhase[]};

const running = new Set(['PENDING', 'IN_PROGRESS', 'ERROR']);
const neverRun = 'NEVER_RUN';
export const queuedStatus = 'QUEUED';
/** Note of a plan that ran before but is not the active one; views add its updatedAt as a clock time. */
export const lastRunNote = 'last run';
export const queuedNote = 'waiting for the controller to start this plan';

const name = (v: unknown): string => sanitizeLine(v, maxNameLength);
const message = (v: unknown): string => sanitizeLine(v, maxMessageLength);
/** Status words are short; anything long is not a KUDO status anyway. */
const statusWord = (v: unknown): string => sanitizeLine(v, 64);

const readStep = readOnce(new WeakMap<RawRecord, Step>(), r => ({
	name: name(r['name']),
	status: statusWord(r['status']),
	message: message(r['message']),
}));

function readSteps(value: unknown): readonly Step[] {
	return records(value).map(readStep);
}

/**
 * The plan status the engine would have written, from its phases and steps (pkg/engine/workflow/engine.go: a
 * fatal step makes its phase and plan FATAL_ERROR; a plan runs while any part is in progress, retried or left).
 */
export function derivePlanStatus(statuses: readonly string[]): string {
	const known = statuses.filter(s => s !== '');
	if (known.length === 0) {
		return '';
	}

	if (known.includes('FATAL_ERROR')) {
		return 'FATAL_ERROR';
	}

	if (known.some(s => !['PENDING', 'IN_PROGRESS', 'ERROR', 'COMPLETE', neverRun].includes(s))) {
		return '';
	}

	if (known.every(s => s === 'COMPLETE')) {
		return 'COMPLETE';
	}

	if (known.every(s => s === neverRun)) {
		return neverRun;
	}

	if (known.every(s => s === 'PENDING' || s === neverRun)) {
		return 'PENDING';
	}

	return 'IN_PROGRESS';
}

const readPhase = readOnce(new WeakMap<RawRecord, Phase>(), pr => ({
	name: name(pr['name']),
	status: statusWord(pr['status']),
	message: message(pr['message']),
	steps: readSteps(pr['steps']),
}));

const readPlanRecord = readOnce(new WeakMap<RawRecord, PlanStatus>(), (r): PlanStatus => {
	const phases = records(r['phases']).map(readPhase);
	const rawStatus = statusWord(r['status']);
	return {
		status: rawStatus || derivePlanStatus(phases.flatMap(p => [p.status, ...p.steps.map(st => st.status)])),
		rawStatus,
		message: message(r['message']),
		updatedAt: isoTime(r['lastUpdatedTimestamp']),
		uid: name(r['uid']),
		phases,
	};
});

function readPlanStatus(value: unknown): PlanStatus {
	return readPlanRecord(record(value));
}

const terminal = new Set(['COMPLETE', 'FATAL_ERROR']);

/** A node the engine will not move again: its plan is terminal but it was left unfinished. */
function stoppedBy(planStatus: string, status: string): string | undefined {
	return terminal.has(planStatus) && running.has(status) ? 'stopped' : undefined;
}

const readOvPhase = readOnce(new WeakMap<RawRecord, OvPhase>(), pr => ({
	name: name(pr['name']),
	strategy: name(pr['strategy']),
	steps: records(pr['steps']).map(s => name(s['name'])),
}));

const readOvPlanRecord = readOnce(new WeakMap<RawRecord, OvPlan>(), r => ({
	strategy: name(r['strategy']),
	phases: records(r['phases']).map(readOvPhase),
}));

function readOvPlan(value: unknown): OvPlan {
	return readOvPlanRecord(record(value));
}

/** First-wins map from sanitized keys, so a hostile twin key cannot replace a real entry. */
function readMap<T>(value: unknown, read: (v: unknown) => T): Map<string, T> {
	const out = new Map<string, T>();
	for (const [key, v] of Object.entries(record(value))) {
		const k = name(key);
		if (k && !out.has(k)) {
			out.set(k, read(v));
		}
	}

	return out;
}

function byName(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function stateOf(status: string): NodeState {
	return kudoState(status);
}

type BuiltPlan = {node: PlanNode; steps: number; stepsDone: number; status: string};

type PlanContext = {
	readonly active: boolean;
	readonly queued: boolean;
	/** The order of runs is known to put this (inactive) plan before the active one. */
	readonly ranBefore: boolean;
	/** ISO start of this plan's latest run from the manager's Events, when planwatch did not see it start. */
	readonly startedAt?: string;
};

function buildPlan(
	planName: string,
	status: PlanStatus | undefined,
	ov: OvPlan | undefined,
	ids: SiblingIds,
	context: PlanContext,
	previousPlans?: readonly PlanNode[],
): BuiltPlan {
	const {active, queued} = context;
	const planId = ids.next('plan', planName);
	const previous = previousPlans?.find(p => p.id === planId);
	const phaseIds = new SiblingIds(planId);
	const phases: PlanNode[] = [];
	let steps = 0;
	let stepsDone = 0;
	const fromStatus = status?.phases ?? [];
	const terminalStatus = status?.status ?? '';
	const seenPhases = new Set(fromStatus.map(p => p.name));
	const merged: Phase[] = [
		...fromStatus,
		// Phases the status does not list yet (no status, or an OperatorVersion newer than the status).
		...(ov?.phases ?? []).filter(p => !seenPhases.has(p.name)).map(p => ({name: p.name, status: neverRun, message: '', steps: []})),
	];
	for (const phase of merged) {
		const ovPhase = ov?.phases.find(p => p.name === phase.name);
		const phaseId = phaseIds.next('phase', phase.name);
		const stepIds = new SiblingIds(phaseId);
		const stepList = withOvSteps(phase.steps, ovPhase?.steps ?? []);
		const before = previousChild(previous, phases.length, phaseId);
		// The same step names in the same order under the same phase id: the same ids (SiblingIds is a function of
		// them), taken from the last adaptation instead of built and compared again.
		const sameIds = before !== undefined && before.children.length === stepList.length
			&& stepList.every((step, i) => before.children[i]!.name === step.name);
		const children: PlanNode[] = stepList.map((step, i) => {
			steps++;
			if (step.status === 'COMPLETE') {
				stepsDone++;
			}

			const stopped = stoppedBy(terminalStatus, step.status);
			if (sameIds) {
				const old = before.children[i]!;
				return sameStep(old, step, stopped) ? old : stepNode(old.id, step, stopped);
			}

			const id = stepIds.next('step', step.name);
			const old = previousChild(before, i, id);
			return old !== undefined && sameStep(old, step, stopped) ? old : stepNode(id, step, stopped);
		});
		const stopped = stoppedBy(terminalStatus, phase.status);
		const node: PlanNode = {
			id: phaseId,
			kind: 'phase',
			name: phase.name,
			status: phase.status,
			state: stopped ? 'stopped' : stateOf(phase.status),
			...(stopped ? {statusReason: stopped} : {}),
			...(ovPhase?.strategy ? {strategy: ovPhase.strategy} : {}),
			...(phase.message ? {message: phase.message} : {}),
			children,
		};
		phases.push(before === undefined ? node : keptNode(node, before));
	}

	let planStatus = status?.status ?? neverRun;
	let state = stateOf(planStatus);
	let note: string | undefined;
	let statusReason: string | undefined;
	if (status && status.rawStatus === '' && status.status !== '') {
		statusReason = 'missing';
		note = `plan status missing: ${status.status} per its phases`;
	}

	if (active && queued) {
		// The status still shows the previous run (or nothing): say what is really going on.
		planStatus = queuedStatus;
		state = 'pending';
		note = queuedNote;
		stepsDone = 0;
		statusReason = undefined;
	} else if (!active && status && status.status !== neverRun && status.status !== '' && (status.updatedAt || context.ranBefore)) {
		// The time is the node's updatedAt: each view prints it in its own time zone. Without one, `previous run`
		// only when the order of runs is known.
		const run = status.updatedAt ? lastRunNote : 'previous run';
		note = note ? `${note}; ${run}` : run;
	}

	// A finished run timed by the controller's own records: its PlanStarted Event and its last update (startOf in
	// adaptInstance keeps only a start no later than that update). A queued plan is neither running nor terminal, so
	// the start of its previous run is never shown.
	const started = context.startedAt;
	const finished = terminal.has(planStatus) && started !== undefined ? status?.updatedAt : undefined;

	const node: PlanNode = {
		id: planId,
		kind: 'plan',
		name: planName,
		// The raw word stays visible; the derived one drives the state.
		status: statusReason ? '' : planStatus,
		state,
		...(statusReason ? {statusReason} : {}),
		...(ov?.strategy ? {strategy: ov.strategy} : {}),
		...(status?.message ? {message: status.message} : {}),
		...(note ? {note} : {}),
		...(status?.updatedAt ? {updatedAt: status.updatedAt} : {}),
		...(started !== undefined && (finished !== undefined || running.has(planStatus)) ? {startedAt: started} : {}),
		...(finished === undefined ? {} : {endedAt: finished}),
		active,
		children: phases,
	};
	return {node: previous === undefined ? node : keptNode(node, previous), steps, stepsDone, status: planStatus};
}

/*
 * Reuse of the last adaptation's nodes (`InstanceEvidence.previous`): a step whose status, message and state are
 * what they were is the node it was, and a phase or plan whose fields and children are all the same is too. The
 * store, the timings, the render gate and the rows then compare those nodes by identity: an update of one step of
 * a 500-step plan builds that step, its phase and its plan.
 */

/** The status's steps, then the OperatorVersion's it does not list yet (NEVER_RUN). */
function withOvSteps(listed: readonly Step[], planned: readonly string[]): readonly Step[] {
	// Usually the status lists every planned step in the plan's order: nothing to add, no set of names to build.
	if (planned.length <= listed.length && planned.every((s, i) => listed[i]!.name === s)) {
		return listed;
	}

	const seen = new Set(listed.map(s => s.name));
	return [...listed, ...planned.filter(s => !seen.has(s)).map(s => ({name: s, status: neverRun, message: ''}))];
}

/** A step's node, as read from the Instance's status (or NEVER_RUN from the OperatorVersion). */
function stepNode(id: string, step: Step, stopped: string | undefined): PlanNode {
	return {
		id,
		kind: 'step',
		name: step.name,
		status: step.status,
		state: stopped ? 'stopped' : stateOf(step.status),
		...(stopped ? {statusReason: stopped} : {}),
		...(step.message ? {message: step.message} : {}),
		children: [],
	};
}

/**
 * Whether `old` (a node of the last adaptation, with the id stepNode would give) is the node stepNode would build
 * for this step: every field stepNode sets (test/model/adapt-kudo-instance-reuse.test.ts checks reused trees equal
 * fresh ones).
 */
function sameStep(old: PlanNode, step: Step, stopped: string | undefined): boolean {
	return old.kind === 'step' && old.name === step.name && old.status === step.status && old.statusReason === stopped
		&& old.message === (step.message || undefined) && old.state === (stopped ? 'stopped' : stateOf(step.status))
		&& old.children.length === 0;
}

/** The node at `index` under `parent` in the last adaptation, when it has this id. */
function previousChild(parent: PlanNode | undefined, index: number, id: string): PlanNode | undefined {
	const old = parent?.children[index];
	return old?.id === id ? old : parent?.children.find(c => c.id === id);
}

const nodeChildren: ReadonlySet<string> = new Set(['children']);

/** `old` when `node` has its fields and its very children; else `node`, with `old`'s children list if that is the same. */
function keptNode(node: PlanNode, old: PlanNode): PlanNode {
	const sameChildren = node.children.length === old.children.length && node.children.every((c, i) => c === old.children[i]);
	if (sameChildren && sameFieldsExcept(old, node, nodeChildren)) {
		return old;
	}

	return sameChildren ? {...node, children: old.children} : node;
}

/** Where the active plan is: for the summary line. */
function describeActivePlan(plan: PlanNode, planStatus: string, stepsDone: number, steps: number): {outcome: Outcome; summary: string} {
	const counts = `(${stepsDone}/${steps} steps)`;
	const p = plan.name;
	const withMessage = (text: string, m: string | undefined): string => (m ? `${text}: ${m}` : text);
	// The first step (with its phase) that is so, and how many are: no list of every step of a 500-step plan.
	const stepWhere = (wanted: string): {phase: PlanNode; step: PlanNode; count: number} | undefined => {
		let first: {phase: PlanNode; step: PlanNode} | undefined;
		let count = 0;
		for (const phase of plan.children) {
			for (const step of phase.children) {
				if (step.status === wanted) {
					first ??= {phase, step};
					count++;
				}
			}
		}

		return first && {...first, count};
	};
	switch (planStatus) {
		case queuedStatus: {
			return {outcome: 'running', summary: `${p} triggered, waiting for the controller to start it`};
		}

		case 'PENDING': {
			return {outcome: 'running', summary: `${p} pending ${counts}`};
		}

		case 'IN_PROGRESS':
		case 'ERROR': {
			const retrying = stepWhere('ERROR');
			if (retrying) {
				return {
					outcome: 'running',
					summary: withMessage(`${p}: step ${retrying.step.name} retrying ${counts}`, retrying.step.message),
				};
			}

			const retryingPhase = plan.children.find(ph => ph.status === 'ERROR');
			if (retryingPhase) {
				return {
					outcome: 'running',
					summary: withMessage(`${p}: phase ${retryingPhase.name} retrying ${counts}`, retryingPhase.message),
				};
			}

			if (planStatus === 'ERROR') {
				return {outcome: 'running', summary: withMessage(`${p} retrying ${counts}`, plan.message)};
			}

			const first = stepWhere('IN_PROGRESS');
			if (first) {
				const more = first.count > 1 ? ` (+${first.count - 1} more)` : '';
				return {
					outcome: 'running',
					summary: `${p} in progress: phase ${first.phase.name}, step ${first.step.name}${more} ${counts}`,
				};
			}

			const phase = plan.children.find(ph => ph.status !== 'COMPLETE');
			return {outcome: 'running', summary: phase ? `${p} in progress: phase ${phase.name} ${counts}` : `${p} in progress ${counts}`};
		}

		case 'COMPLETE': {
			return {outcome: 'succeeded', summary: `${p} completed`};
		}

		case 'FATAL_ERROR': {
			const failed = stepWhere('FATAL_ERROR');
			if (failed) {
				return {
					outcome: 'failed',
					summary: withMessage(
						`${p} failed in phase ${failed.phase.name}, step ${failed.step.name}`,
						failed.step.message || failed.phase.message || plan.message,
					),
				};
			}

			const phase = plan.children.find(ph => ph.status === 'FATAL_ERROR');
			return {
				outcome: 'failed',
				summary: phase
					? withMessage(`${p} failed in phase ${phase.name}`, phase.message || plan.message)
					: withMessage(`${p} failed`, plan.message),
			};
		}

		case neverRun: {
			// Only reachable for a scheduled plan whose run the controller has already taken (same uid).
			return {outcome: 'running', summary: `${p} scheduled, waiting to start`};
		}

		default: {
			return {outcome: 'unknown', summary: planStatus ? `${p} has unknown status ${planStatus}` : `${p} has no status`};
		}
	}
}

/** What else the cluster records of an Instance's runs, beyond the object itself. */
export type InstanceEvidence = {
	/** Events about the Instance (any order; others are ignored). */
	readonly events?: readonly PlanEvent[];
	/** What planwatch saw of its runs while watching (kudo-plan-order.ts nextRunMemory). */
	readonly memory?: KudoRunMemory;
	/** false: planwatch may not read Events (403), so their absence says nothing. */
	readonly eventsReadable?: boolean;
	/**
	 * The tree of this Instance's last adaptation: its nodes that come out the same are reused (the same objects),
	 * and the tree itself when nothing in it changed.
	 */
	readonly previous?: readonly PlanNode[];
};

/**
 * kudo.dev/v1alpha1 (KUDO ≤ 0.9) in the v1beta1 shape this file reads, or why it cannot be read. Two shapes existed
 * (kudobuilder/kudo pkg/apis/kudo/v1alpha1/instance_types.go): from v0.6, `status.planStatus` as now but with
 * `lastFinishedRun` for the time, and `status.aggregatedStatus.activePlanName` for the active plan (no
 * planExecution, no uids); before it, only `status.activePlan` (a PlanExecution object's name) and
 * `status.status`: the plan tree then lives in PlanExecution objects, which planwatch does not read.
 */
function fromV1alpha1(instance: KubeObject): {instance: KubeObject; activePlan?: string} | {refused: string} {
	const status = record(instance['status']);
	const planStatus = record(status['planStatus']);
	if (Object.keys(planStatus).length === 0 && (status['activePlan'] !== undefined || status['status'] !== undefined)) {
		const word = statusWord(status['status']);
		return {
			refused: `kudo.dev/v1alpha1 Instance from KUDO before 0.6${word ? ` (status ${word})` : ''}: its plans are in PlanExecution ` +
				'objects, which planwatch does not read',
		};
	}

	const plans: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(planStatus)) {
		const r = record(value);
		plans[key] = {...r, lastUpdatedTimestamp: r['lastUpdatedTimestamp'] ?? r['lastFinishedRun']};
	}

	const activePlan = name(record(status['aggregatedStatus'])['activePlanName']);
	return {instance: {...instance, status: {...status, planStatus: plans}}, ...(activePlan ? {activePlan} : {})};
}

/** Instance (+ its OperatorVersion when known) → PlanObject. Never throws on malformed input. */
export function adaptInstance(given: KubeObject, operatorVersion?: KubeObject, evidence: InstanceEvidence = {}): PlanObject {
	const old = given.apiVersion === 'kudo.dev/v1alpha1' ? fromV1alpha1(given) : undefined;
	if (old && 'refused' in old) {
		return refusedInstance(given, old.refused);
	}

	const instance = old?.instance ?? given;
	const meta = record(instance.metadata);
	const spec: RawRecord = record(instance['spec']);
	const versionName = name(record(spec['operatorVersion'])['name']);
	const execution = record(spec['planExecution']);
	const scheduledPlan = name(execution['planName']);
	const scheduledUid = name(execution['uid']);
	const plans = readMap(record(instance['status'])['planStatus'], readPlanStatus);

	// The store looks the OperatorVersion up by name; a mismatched one would draw another operator's plans.
	const ovName = operatorVersion ? name(record(operatorVersion.metadata)['name']) : '';
	const ovPlans = operatorVersion && (!versionName || !ovName || ovName === versionName)
		? readMap(record(operatorVersion['spec'])['plans'], readOvPlan)
		: new Map<string, OvPlan>();

	const eventFacts = evidence.events && evidence.events.length > 0
		? readKudoEvents(evidence.events, {
			namespace: name(meta['namespace']),
			name: name(meta['name']),
			uid: name(meta['uid']),
			createdAt: isoTime(meta['creationTimestamp']),
		})
		: undefined;
	const ran = [...plans]
		.filter(([, p]) => p.status !== '' && p.status !== neverRun)
		.map(([n, p]) => ({name: n, status: p.status, ...(p.updatedAt ? {updatedAt: p.updatedAt} : {})}));
	// v1alpha1's aggregatedStatus named the active plan: the controller's own record.
	const recorded = old?.activePlan !== undefined && plans.has(old.activePlan) ? old.activePlan : undefined;
	const last: LastRun | undefined = scheduledPlan
		? undefined
		: recorded ? {plan: recorded, by: 'only'} : lastRun(ran, evidence.memory, eventFacts, evidence.eventsReadable ?? true);
	const activePlan = scheduledPlan || last?.plan;
	const queued = scheduledPlan !== '' && plans.get(scheduledPlan)?.uid !== scheduledUid;
	const undecided = last?.by === 'unknown' ? last : undefined;
	const startOf = (n: string): string | undefined => {
		// A run planwatch saw start: the Event's time only when it is surely this run's (docs/waiting.md).
		const at = startedWhileWatched(evidence.memory, n) ? watchedRunStart(eventFacts, evidence.memory, n) : plannedStart(eventFacts, n);
		const updated = plans.get(n)?.updatedAt;
		// An Event newer than the status belongs to a run the status does not show yet.
		return at !== undefined && (updated === undefined || timeValue(at) <= timeValue(updated)) ? at : undefined;
	};

	const names = new Set([...plans.keys(), ...ovPlans.keys()]);
	if (scheduledPlan) {
		names.add(scheduledPlan);
	}

	const ids = new SiblingIds('');
	let active: BuiltPlan | undefined;
	const built = [...names].sort(byName).map(n => {
		const start = startOf(n);
		const built = buildPlan(n, plans.get(n), ovPlans.get(n), ids, {
			active: n === activePlan,
			queued,
			ranBefore: activePlan !== undefined && undecided === undefined,
			...(start === undefined ? {} : {startedAt: start}),
		}, evidence.previous);
		if (n === activePlan) {
			active = built;
		}

		return built.node;
	});

	const previousTree = evidence.previous;
	const tree = previousTree?.length === built.length && built.every((node, i) => node === previousTree[i]) ? previousTree : built;
	let outcome: Outcome = 'unknown';
	let summary = 'no plan has run yet';
	let state: NodeState = 'inactive';
	let status = neverRun;
	if (active) {
		({outcome, summary} = describeActivePlan(active.node, active.status, active.stepsDone, active.steps));
		if (active.node.statusReason) {
			summary += ' (plan status missing)';
		}

		if (undecided) {
			summary = `${undecided.reason}; ${summary}`;
		}

		status = active.status;
		state = status === neverRun && scheduledPlan ? 'pending' : active.node.state;
		// A plan IN_PROGRESS with a step KUDO is retrying reads as retrying in list views.
		if (
			state === 'running' &&
			active.node.children.some(ph => ph.status === 'ERROR' || ph.children.some(st => st.status === 'ERROR'))
		) {
			state = 'retrying';
		}
	}

	const planUids: Record<string, string> = {};
	const planStatuses: Record<string, string> = {};
	for (const [n, p] of plans) {
		planUids[n] = p.uid;
		planStatuses[n] = p.status;
	}

	// RawRecord status of the active plan's run as recorded; a plan with no status entry yet has only the spec's copy.
	const activeStatus = activePlan ? plans.get(activePlan)?.status || statusWord(execution['status']) : '';
	const wait: KudoWaitFacts = {
		kind: 'Instance',
		scheduledPlan,
		scheduledUid,
		planUids,
		planStatuses,
		...(activePlan ? {activePlan} : {}),
		...(undecided ? {undecided: {candidates: undecided.candidates, reason: undecided.reason}} : {}),
		...(activeStatus ? {activeStatus} : {}),
		queued,
	};

	const updatedAt = active?.node.updatedAt ?? latestTime(...[...plans.values()].map(p => p.updatedAt));
	return {
		...identity(meta),
		outcome,
		summary: sanitizeLine(summary, maxMessageLength),
		...(versionName ? {version: versionName} : {}),
		...(activePlan ? {active: activePlan} : {}),
		state,
		status,
		...(active && active.steps > 0
			? {percent: Math.floor((active.stepsDone * 100) / active.steps), steps: {done: active.stepsDone, total: active.steps}}
			: {}),
		...(updatedAt ? {updatedAt} : {}),
		wait,
		...deletionOf(instance),
		tree,
	};
}

/** An Instance planwatch cannot read: unknown state, the reason as its summary, and a wait that does not succeed. */
function refusedInstance(instance: KubeObject, reason: string): PlanObject {
	return {
		...identity(record(instance.metadata)),
		outcome: 'unknown',
		summary: sanitizeLine(reason, maxMessageLength),
		state: 'unknown',
		status: '',
		wait: {
			kind: 'Instance',
			scheduledPlan: '',
			scheduledUid: '',
			planUids: {},
			queued: false,
			unreadable: sanitizeLine(reason, maxMessageLength),
		},
		...deletionOf(instance),
		tree: [],
	};
}

/** What names an Instance, read or refused: kind, namespace, name, and uid, resourceVersion, creation when known. */
function identity(meta: RawRecord): Pick<PlanObject, 'kind' | 'namespace' | 'name' | 'uid' | 'resourceVersion' | 'createdAt'> {
	const createdAt = isoTime(meta['creationTimestamp']);
	return {
		kind: 'Instance',
		namespace: name(meta['namespace']),
		name: name(meta['name']),
		...(rawString(meta['uid']) ? {uid: name(meta['uid'])} : {}),
		...(rawString(meta['resourceVersion']) ? {resourceVersion: name(meta['resourceVersion'])} : {}),
		...(createdAt ? {createdAt} : {}),
	};
}
