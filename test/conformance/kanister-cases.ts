/**
 * Kanister conformance cases: ActionSet states as kanisterio/kanister@534f1523 writes them, each with the source
 * lines it encodes and the outcome planwatch must give. Built here (not copied from upstream): every status is
 * what pkg/controller/controller.go would write at one moment of a run.
 */
import type {KubeObject} from '../../source/core/kube-object.js';
import type {Outcome} from '../../source/model/plan-tree.js';

export const namespace = 'conformance';
export const created = '2026-01-01T10:00:00Z';
/** Last progress of every case: phases' lastTransitionTime and events are at or before this. */
export const lastProgress = '2026-01-01T10:05:00Z';

type State = 'pending' | 'running' | 'complete' | 'failed' | '';
export type ActionDef = {
	readonly name: string;
	readonly phases: ReadonlyArray<readonly [string, State]>;
	/** [name, state]; none = the blueprint action has no deferPhase (status keeps `{name: "", state: ""}`). */
	readonly defer?: readonly [string, State];
};

export type EventDef = {readonly reason: string; readonly message: string; readonly type?: 'Normal' | 'Warning'};

/** What the wait must do: end with an exit code, keep waiting, or wait out the deferPhase grace, then end. */
export type Expected =
	| {readonly wait: 'done'; readonly exitCode: 0 | 1}
	| {readonly wait: 'waiting'}
	| {readonly wait: 'grace'; readonly thenExitCode: 0 | 1};

export type KanisterCase = {
	readonly name: string;
	/** Upstream file:lines (kanisterio/kanister) the case encodes. */
	readonly cites: string;
	readonly state: State;
	readonly actions: readonly ActionDef[];
	/** status.actions replaced by this raw value (empty or not a list). */
	readonly rawActions?: unknown;
	readonly runningPhase?: string;
	readonly error?: string;
	readonly events?: readonly EventDef[];
	readonly outcome: Outcome;
	readonly expected: Expected;
	/** Checks on the summary (substrings). */
	readonly summaryHas?: readonly string[];
	/** deferPhase node states by action name. */
	readonly deferStates?: Readonly<Record<string, string>>;
};

const c = 'pkg/controller/controller.go';

export const kanisterCases: readonly KanisterCase[] = [
	// --- one action, no deferPhase ---
	{
		name: 'one-running',
		cites: `${c}:493-510 (updateActionSetRunningPhase marks the phase running)`,
		state: 'running',
		actions: [{name: 'backup', phases: [['dump', 'running']]}],
		runningPhase: 'dump',
		outcome: 'running',
		expected: {wait: 'waiting'},
	},
	{
		name: 'one-complete',
		cites: `${c}:707-745 (maybeSetActionSetStateComplete once every core phase is complete)`,
		state: 'complete',
		actions: [{name: 'backup', phases: [['dump', 'complete'], ['upload', 'complete']]}],
		outcome: 'succeeded',
		expected: {wait: 'done', exitCode: 0},
	},
	{
		name: 'one-failed',
		cites: `${c}:524-534 (a core failure writes State=failed; later phases stay pending)`,
		state: 'failed',
		actions: [{name: 'backup', phases: [['dump', 'failed'], ['upload', 'pending']]}],
		error: 'null: command terminated with exit code 1',
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
	},
	// --- one action with a deferPhase, every order ---
	{
		name: 'defer-running-after-success',
		cites: `${c}:474-481 (the deferPhase runs in the goroutine's defer), :582-596 (runningPhase; deferPhase.state stays pending)`,
		state: 'running',
		actions: [{name: 'backup', phases: [['dump', 'complete']], defer: ['record', 'pending']}],
		runningPhase: 'record',
		outcome: 'running',
		expected: {wait: 'waiting'},
		deferStates: {backup: 'running'},
	},
	{
		name: 'defer-not-yet-started-after-success',
		cites: `${c}:474-480 (between the last core phase and updateActionSetRunningPhase the state is still running)`,
		state: 'running',
		actions: [{name: 'backup', phases: [['dump', 'complete']], defer: ['record', 'pending']}],
		outcome: 'running',
		expected: {wait: 'waiting'},
		deferStates: {backup: 'pending'},
	},
	{
		name: 'defer-complete-then-complete',
		cites: `${c}:629-633 then :484-486 (deferPhase complete, then the ActionSet complete)`,
		state: 'complete',
		actions: [{name: 'backup', phases: [['dump', 'complete']], defer: ['record', 'complete']}],
		outcome: 'succeeded',
		expected: {wait: 'done', exitCode: 0},
	},
	{
		name: 'defer-failed-after-success',
		cites: `${c}:618-627 (a deferPhase failure sets State=failed)`,
		state: 'failed',
		actions: [{name: 'backup', phases: [['dump', 'complete']], defer: ['record', 'failed']}],
		error: 'pods "record" not found',
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
	},
	{
		name: 'core-failed-defer-running',
		cites: `${c}:526-533 (State=failed before the deferPhase runs), :479 (runningPhase set again)`,
		state: 'failed',
		actions: [{name: 'restore', phases: [['shutdown', 'complete'], ['restore', 'failed']], defer: ['startup', 'pending']}],
		runningPhase: 'startup',
		error: 'null: restore failed',
		outcome: 'running',
		expected: {wait: 'waiting'},
		deferStates: {restore: 'running'},
	},
	{
		name: 'core-failed-defer-not-started',
		cites: `${c}:526-533 then :474-481 (the deferPhase is about to run: no sign yet)`,
		state: 'failed',
		actions: [{name: 'restore', phases: [['restore', 'failed']], defer: ['startup', 'pending']}],
		error: 'null: restore failed',
		outcome: 'failed',
		expected: {wait: 'grace', thenExitCode: 1},
	},
	{
		name: 'core-failed-defer-complete',
		cites: `${c}:629-633 (deferPhase complete; nothing clears runningPhase or the failure)`,
		state: 'failed',
		actions: [{name: 'restore', phases: [['restore', 'failed']], defer: ['startup', 'complete']}],
		runningPhase: 'startup',
		error: 'null: restore failed',
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
	},
	{
		name: 'core-failed-defer-failed',
		cites: `${c}:618-627 (the deferPhase failure overwrites error.message)`,
		state: 'failed',
		actions: [{name: 'restore', phases: [['restore', 'failed']], defer: ['startup', 'failed']}],
		error: 'startup failed',
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
	},
	// --- several actions ---
	{
		name: 'multi-one-running',
		cites: `${c}:727-738 (not complete while another action's phase is not complete)`,
		state: 'running',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']]},
			{name: 'verify', phases: [['check', 'running']]},
		],
		runningPhase: 'check',
		outcome: 'running',
		expected: {wait: 'waiting'},
	},
	{
		name: 'multi-complete',
		cites: `${c}:727-744`,
		state: 'complete',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']]},
			{name: 'verify', phases: [['check', 'complete']]},
		],
		outcome: 'succeeded',
		expected: {wait: 'done', exitCode: 0},
	},
	{
		name: 'multi-one-failed-other-running',
		cites: `${c}:526-533 (one goroutine fails the ActionSet while the other still runs)`,
		state: 'failed',
		actions: [
			{name: 'backup', phases: [['dump', 'failed']]},
			{name: 'verify', phases: [['check', 'running']]},
		],
		error: 'null: dump failed',
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
	},
	{
		name: 'multi-complete-other-defer-running',
		cites: `${c}:707-745 (complete checks only core phases) while :474-481 runs the second action's deferPhase`,
		state: 'complete',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']], defer: ['cleanupBackup', 'complete']},
			{name: 'verify', phases: [['check', 'complete']], defer: ['cleanupVerify', 'pending']},
		],
		runningPhase: 'cleanupVerify',
		outcome: 'running',
		expected: {wait: 'waiting'},
		deferStates: {backup: 'succeeded', verify: 'running'},
	},
	{
		name: 'multi-complete-other-defer-about-to-start',
		cites: `${c}:707-745 then :474-480 (the second action's core is done; its deferPhase starts next, or never if InitDeferPhaseParams fails)`,
		state: 'complete',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']], defer: ['cleanupBackup', 'complete']},
			{name: 'verify', phases: [['check', 'complete']], defer: ['cleanupVerify', 'pending']},
		],
		outcome: 'running',
		expected: {wait: 'grace', thenExitCode: 1},
		deferStates: {verify: 'pending'},
	},
	{
		name: 'multi-complete-then-other-defer-failed',
		cites: `${c}:618-627 (a later deferPhase failure rewrites complete to failed)`,
		state: 'failed',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']], defer: ['cleanupBackup', 'complete']},
			{name: 'verify', phases: [['check', 'complete']], defer: ['cleanupVerify', 'failed']},
		],
		error: 'cleanup failed',
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
	},
	{
		name: 'multi-complete-then-other-defer-complete',
		cites: `${c}:629-633 and :484-486 (the second action's maybeSetActionSetStateComplete keeps complete)`,
		state: 'complete',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']], defer: ['cleanupBackup', 'complete']},
			{name: 'verify', phases: [['check', 'complete']], defer: ['cleanupVerify', 'complete']},
		],
		outcome: 'succeeded',
		expected: {wait: 'done', exitCode: 0},
	},
	{
		name: 'multi-same-defer-name-by-progress',
		cites: `${c}:582-596 (one runningPhase for the whole ActionSet), :714 (TODO #2270: track multiple phases)`,
		state: 'running',
		actions: [
			{name: 'backup', phases: [['dump', 'running']], defer: ['deferPhase', 'pending']},
			{name: 'verify', phases: [['check', 'complete']], defer: ['deferPhase', 'pending']},
		],
		runningPhase: 'deferPhase',
		outcome: 'running',
		expected: {wait: 'waiting'},
		// Only the action whose core phases ended can be running its deferPhase.
		deferStates: {backup: 'pending', verify: 'running'},
	},
	{
		name: 'multi-same-defer-name-by-events',
		cites: `${c}:614, :652 ("Executing deferPhase <name>" names only the phase)`,
		state: 'complete',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']], defer: ['deferPhase', 'complete']},
			{name: 'verify', phases: [['check', 'complete']], defer: ['deferPhase', 'pending']},
		],
		events: [
			{reason: 'Started deferPhase', message: 'Executing deferPhase deferPhase'},
			{reason: 'Ended deferPhase', message: 'Completed deferPhase deferPhase'},
		],
		// The one start belongs to the finished deferPhase: the second has shown no sign yet.
		outcome: 'running',
		expected: {wait: 'grace', thenExitCode: 1},
		deferStates: {backup: 'succeeded', verify: 'pending'},
	},
	{
		name: 'multi-same-defer-name-second-started',
		cites: `${c}:614 (a second "Started deferPhase" event for the same name)`,
		state: 'complete',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']], defer: ['deferPhase', 'complete']},
			{name: 'verify', phases: [['check', 'complete']], defer: ['deferPhase', 'pending']},
		],
		events: [
			{reason: 'Started deferPhase', message: 'Executing deferPhase deferPhase'},
			{reason: 'Ended deferPhase', message: 'Completed deferPhase deferPhase'},
			{reason: 'Started deferPhase', message: 'Executing deferPhase deferPhase'},
		],
		outcome: 'running',
		expected: {wait: 'waiting'},
		deferStates: {backup: 'succeeded', verify: 'running'},
	},
	// --- launch and init failures ---
	{
		name: 'launch-failed',
		cites: `${c}:415-431 (runAction fails synchronously: Phases[0]=failed, State=failed, no goroutine, no deferPhase)`,
		state: 'failed',
		actions: [{name: 'backup', phases: [['dump', 'failed'], ['upload', 'pending']], defer: ['record', 'pending']}],
		error: 'Failed to get StatefulSet: statefulsets.apps "mysql-relase" not found',
		events: [
			{reason: 'Started Action', message: 'Executing action backup'},
			{
				reason: 'ActionSetFailed Action: backup',
				type: 'Warning',
				message: 'Failed to launch Action launch-failed: Failed to get StatefulSet: statefulsets.apps "mysql-relase" not found',
			},
		],
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
		summaryHas: ['will not run'],
		deferStates: {backup: 'pending'},
	},
	{
		name: 'launch-failed-second-action',
		cites: `${c}:408-423 (the first action's goroutine runs on; only the second failed to launch)`,
		state: 'failed',
		actions: [
			{name: 'backup', phases: [['dump', 'complete']], defer: ['cleanupBackup', 'pending']},
			{name: 'verify', phases: [['check', 'failed']], defer: ['cleanupVerify', 'pending']},
		],
		error: 'template: config:1: nil pointer',
		events: [{reason: 'ActionSetFailed Action: verify', type: 'Warning', message: 'Failed to launch Action launch-failed-second-action: template: config:1: nil pointer'}],
		// The first action's deferPhase is due: grace for it; the second's never runs.
		outcome: 'failed',
		expected: {wait: 'grace', thenExitCode: 1},
	},
	{
		name: 'legacy-phase-failed',
		cites: 'pkg/controller/controller.go before cf6cc5290 ("Failed to run phase %d of action %s:"; no deferPhase before 0.77.0)',
		state: 'failed',
		actions: [{name: 'delete', phases: [['deleteFromS3', 'failed']], defer: ['record', 'pending']}],
		events: [{reason: 'ActionSetFailed Action: delete', type: 'Warning', message: 'Failed to run phase 0 of action delete: command terminated with exit code 1'}],
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
	},
	{
		name: 'init-failed',
		cites: `${c}:313-356 (initActionSetStatus: State=failed, no status.actions)`,
		state: 'failed',
		actions: [],
		error: 'Failed to query blueprint: blueprints.cr.kanister.io "typo" not found',
		outcome: 'failed',
		expected: {wait: 'done', exitCode: 1},
		summaryHas: ['failed to start'],
	},
	// --- states the controller never writes ---
	{
		name: 'invalid-complete',
		cites: 'pkg/validate/validate.go:113-116 ("ActionSet cannot be complete if any actions are not complete")',
		state: 'complete',
		actions: [{name: 'backup', phases: [['dump', 'complete'], ['upload', 'pending']]}],
		outcome: 'unknown',
		expected: {wait: 'done', exitCode: 1},
		summaryHas: ['inconsistent', 'upload'],
	},
	{
		name: 'running-empty-actions',
		cites: `${c}:269-284 (onUpdateActionSet: a running ActionSet with no actions is only then set complete)`,
		state: 'running',
		actions: [],
		rawActions: [],
		outcome: 'running',
		expected: {wait: 'waiting'},
	},
	{
		name: 'running-actions-not-a-list',
		cites: 'pkg/apis/cr/v1alpha1/types.go (status.actions is a list; anything else carries no action)',
		state: 'running',
		actions: [],
		rawActions: {backup: {phases: []}},
		outcome: 'running',
		expected: {wait: 'waiting'},
	},
];

function phase(name: string, state: State): Record<string, unknown> {
	return {name, state, progress: state === 'complete' ? {progressPercent: '100', lastTransitionTime: lastProgress} : {}};
}

/** The ActionSet of a case, as the API server returns it. */
export function actionSetOf(k: KanisterCase): KubeObject {
	// The spec names the actions the status has; an init failure still has its requested action.
	// (Only an init failure: otherwise status and spec name as many actions, as pkg/validate requires.)
	const specActions = k.actions.length > 0
		? k.actions.map(a => ({name: a.name, blueprint: 'bp', object: {kind: 'statefulset', namespace: 'db', name: 'mysql'}}))
		: k.state === 'failed' ? [{name: 'backup', blueprint: 'typo', object: {kind: 'statefulset', namespace: 'db', name: 'mysql'}}] : [];
	return {
		apiVersion: 'cr.kanister.io/v1alpha1',
		kind: 'ActionSet',
		metadata: {name: k.name, namespace, uid: `uid-${k.name}`, creationTimestamp: created},
		spec: {actions: specActions},
		status: {
			state: k.state,
			actions:
				k.rawActions ??
				k.actions.map(a => ({
					name: a.name,
					blueprint: 'bp',
					object: {kind: 'statefulset', namespace: 'db', name: 'mysql'},
					phases: a.phases.map(([n, s]) => phase(n, s)),
					deferPhase: a.defer ? phase(a.defer[0], a.defer[1]) : {name: '', state: '', progress: {}},
				})),
			error: {message: k.error ?? ''},
			progress: {...(k.runningPhase ? {runningPhase: k.runningPhase} : {}), percentCompleted: '0', lastTransitionTime: lastProgress},
		},
	};
}

/** The case's events as core/v1 Events, one second apart, all at or before lastProgress. */
export function eventsOf(k: KanisterCase): KubeObject[] {
	const n = k.events?.length ?? 0;
	return (k.events ?? []).map((e, i) => ({
		apiVersion: 'v1',
		kind: 'Event',
		metadata: {name: `${k.name}.${i}`, namespace},
		involvedObject: {apiVersion: 'cr.kanister.io/v1alpha1', kind: 'ActionSet', name: k.name, namespace},
		reason: e.reason,
		message: e.message,
		type: e.type ?? 'Normal',
		count: 1,
		lastTimestamp: new Date(Date.parse(lastProgress) - (n - i) * 1000).toISOString().replace('.000Z', 'Z'),
		source: {component: 'Kanister Controller'},
	}));
}
