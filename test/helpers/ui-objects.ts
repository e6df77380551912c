/**
 * Hand-written PlanObjects shaped like the adapters' output, for the interactive views (the plain/json renderers
 * have theirs in plan-objects.ts), plus a StoreSnapshot builder around them.
 */
import type {ExitCode} from '../../source/core/exit-codes.js';
import type {ConnectionState} from '../../source/state/object-source.js';
import {objectKey, type NodeKind, type NodeState, type PlanEvent, type PlanNode, type PlanObject} from '../../source/model/plan-tree.js';
import {objectTimingId, type NodeTiming, type StoreSnapshot} from '../../source/state/store.js';

/** Time the fake clock starts at (FakeClock's default). */
export const t0 = Date.parse('2026-11-30T11:00:00Z');

export function planNode(kind: NodeKind, id: string, name: string, status: string, state: NodeState, more: Partial<PlanNode> = {}): PlanNode {
	return {id, kind, name, status, state, children: [], ...more};
}

function kudoSteps(prefix: string, steps: ReadonlyArray<readonly [string, string, NodeState]>, more: Record<string, Partial<PlanNode>> = {}): PlanNode[] {
	return steps.map(([name, status, state]) => planNode('step', `${prefix}/step:${name}`, name, status, state, more[name]));
}

/** A plan that is not the active one; `previous` = the status its last run left behind (the adapter keeps it). */
function notActivePlan(name: string, steps: readonly string[], previous?: {readonly status: string; readonly state: NodeState; readonly updatedAt: string}): PlanNode {
	const plan = `plan:${name}`;
	const [status, state]: [string, NodeState] = previous ? [previous.status, previous.state] : ['NEVER_RUN', 'inactive'];
	return planNode('plan', plan, name, status, state, {
		strategy: 'serial',
		active: false,
		...(previous ? {updatedAt: previous.updatedAt, note: 'last run'} : {}),
		children: [
			planNode('phase', `${plan}/phase:${name}`, name, status, state, {
				strategy: 'serial',
				children: kudoSteps(`${plan}/phase:${name}`, steps.map(s => [s, status, state] as const)),
			}),
		],
	});
}

/** The ui-sketch Instance: deploy IN_PROGRESS at step init; backup last run failed (history), restore never ran. */
export function mysqlDeploy(): PlanObject {
	return {
		kind: 'Instance',
		namespace: 'default',
		name: 'mysql-instance',
		createdAt: '2026-11-30T10:56:19Z',
		outcome: 'running',
		summary: 'deploy is running: step init (2 of 3)',
		version: 'mysql-5.7-0.3.0',
		active: 'deploy',
		state: 'running',
		status: 'IN_PROGRESS',
		steps: {done: 1, total: 3},
		wait: {kind: 'Instance', scheduledPlan: 'deploy', scheduledUid: 'u1', planUids: {deploy: 'u1'}, activePlan: 'deploy', activeStatus: 'IN_PROGRESS', queued: false},
		tree: [
			planNode('plan', 'plan:deploy', 'deploy', 'IN_PROGRESS', 'running', {
				strategy: 'serial',
				active: true,
				updatedAt: '2026-11-30T11:02:51Z',
				children: [
					planNode('phase', 'plan:deploy/phase:deploy', 'deploy', 'IN_PROGRESS', 'running', {
						strategy: 'serial',
						children: kudoSteps('plan:deploy/phase:deploy', [
							['deploy', 'COMPLETE', 'succeeded'],
							['init', 'IN_PROGRESS', 'running'],
							['cleanup', 'PENDING', 'pending'],
						]),
					}),
				],
			}),
			notActivePlan('backup', ['pv', 'backup', 'cleanup'], {status: 'FATAL_ERROR', state: 'failed', updatedAt: '2026-11-28T09:00:00Z'}),
			notActivePlan('restore', ['restore', 'cleanup']),
		],
	};
}

/** Timings for mysqlDeploy: the plan started 3:41 before t0, step deploy took 1:12, init runs since 2:29. */
export function mysqlDeployTimings(): ReadonlyMap<string, NodeTiming> {
	return new Map<string, NodeTiming>([
		[objectTimingId, {startedAt: t0 - 221_000}],
		['plan:deploy', {startedAt: t0 - 221_000}],
		['plan:deploy/phase:deploy', {startedAt: t0 - 221_000}],
		['plan:deploy/phase:deploy/step:deploy', {startedAt: t0 - 221_000, endedAt: t0 - 149_000}],
		['plan:deploy/phase:deploy/step:init', {startedAt: t0 - 149_000}],
	]);
}

export const transientError =
	'A transient error when executing task deploy.deploy-kafka.service.service. Will retry. services "kafka-svc" is forbidden: exceeded quota: object-counts, requested: services=1, used: ' +
	'services=10, limited: services=10';

/** A KUDO step in ERROR (retried by KUDO). */
export function kafkaRetrying(): PlanObject {
	const phase = 'plan:deploy/phase:deploy-kafka';
	return {
		kind: 'Instance',
		namespace: 'kafka',
		name: 'kafka',
		outcome: 'running',
		summary: 'deploy is retrying step service after errors',
		version: 'kafka-2.5.1-1.3.2',
		active: 'deploy',
		state: 'retrying',
		status: 'IN_PROGRESS',
		steps: {done: 7, total: 12},
		wait: {kind: 'Instance', scheduledPlan: 'deploy', scheduledUid: 'k1', planUids: {deploy: 'k1'}, activePlan: 'deploy', activeStatus: 'IN_PROGRESS', queued: false},
		tree: [
			planNode('plan', 'plan:deploy', 'deploy', 'IN_PROGRESS', 'running', {
				strategy: 'serial',
				active: true,
				children: [
					planNode('phase', phase, 'deploy-kafka', 'IN_PROGRESS', 'running', {
						strategy: 'serial',
						children: kudoSteps(
							phase,
							[
								['generate-tls-certificates', 'COMPLETE', 'succeeded'],
								['service', 'ERROR', 'retrying'],
								['app', 'PENDING', 'pending'],
							],
							{service: {message: transientError, note: 'retrying (3rd time)'}},
						),
					}),
				],
			}),
		],
	};
}

/** The ui-sketch ActionSet: phase copyFiles failed, deferPhase failed too. */
export function backupFailed(): PlanObject {
	const action = 'action:0:backup';
	const phase = (name: string, status: string, state: NodeState, more: Partial<PlanNode> = {}) => planNode('phase', `${action}/phase:${name}`, name, status, state, more);
	return {
		kind: 'ActionSet',
		namespace: 'kanister',
		name: 'backup-glptq',
		outcome: 'failed',
		summary: 'backup failed in phase copyFiles; deferPhase (cleanup) failed too — see events',
		version: 'postgres-bp',
		active: 'backup',
		state: 'failed',
		status: 'failed',
		percent: 62,
		error: 'exit status 3: snapshot upload refused',
		wait: {kind: 'ActionSet', state: 'failed', deferPending: false, deferRunning: false, runningPhase: ''},
		tree: [
			planNode('action', action, 'backup', 'failed', 'failed', {
				active: true,
				detail: 'statefulset postgres-test/my-release-postgresql',
				children: [
					phase('createBackupPod', 'complete', 'succeeded'),
					phase('waitForPodReady', 'complete', 'succeeded'),
					phase('copyFiles', 'failed', 'failed', {message: 'exit status 3: snapshot upload refused'}),
					phase('stopBackup', 'pending', 'pending', {note: '(skipped after failure)'}),
					planNode('deferPhase', `${action}/defer`, 'deferPhase', 'failed', 'failed', {note: 'always runs', message: 'pods "postgres-backup-x" not found'}),
				],
			}),
		],
	};
}

export function nightlyComplete(): PlanObject {
	return {
		kind: 'ActionSet',
		namespace: 'kanister',
		name: 'nightly-x7k2q',
		outcome: 'succeeded',
		summary: 'backup complete',
		version: 'mysql-bp',
		active: 'backup',
		state: 'succeeded',
		status: 'complete',
		percent: 100,
		wait: {kind: 'ActionSet', state: 'complete', deferPending: false, deferRunning: false, runningPhase: ''},
		tree: [planNode('action', 'action:0:backup', 'backup', 'complete', 'succeeded', {children: [planNode('phase', 'action:0:backup/phase:dump', 'dump', 'complete', 'succeeded')]})],
	};
}

/** One plan, one phase, `count` steps; step `running` is IN_PROGRESS, the ones before COMPLETE. */
export function bigPlan(count: number, running: number): PlanObject {
	const phase = 'plan:deploy/phase:all';
	const steps = Array.from({length: count}, (_, i) => {
		const [status, state]: [string, NodeState] = i < running ? ['COMPLETE', 'succeeded'] : i === running ? ['IN_PROGRESS', 'running'] : ['PENDING', 'pending'];
		return planNode('step', `${phase}/step:s${i}`, `step-${String(i).padStart(3, '0')}`, status, state);
	});
	return {
		kind: 'Instance',
		namespace: 'big',
		name: 'many-steps',
		outcome: 'running',
		summary: `deploy is running: step ${running + 1} of ${count}`,
		active: 'deploy',
		state: 'running',
		status: 'IN_PROGRESS',
		steps: {done: running, total: count},
		wait: {kind: 'Instance', scheduledPlan: 'deploy', scheduledUid: 'b', planUids: {deploy: 'b'}, activePlan: 'deploy', activeStatus: 'IN_PROGRESS', queued: false},
		tree: [
			planNode('plan', 'plan:deploy', 'deploy', 'IN_PROGRESS', 'running', {
				strategy: 'serial',
				active: true,
				children: [planNode('phase', phase, 'all', 'IN_PROGRESS', 'running', {strategy: 'serial', children: steps})],
			}),
		],
	};
}

export function planEvent(type: string, reason: string, message: string, secondsBeforeT0: number, involved = 'backup-glptq'): PlanEvent {
	return {
		uid: `${reason}-${secondsBeforeT0}`,
		namespace: 'kanister',
		involvedKind: 'ActionSet',
		involvedName: involved,
		type,
		reason,
		message,
		time: new Date(t0 - secondsBeforeT0 * 1000).toISOString(),
		count: 1,
	};
}

/** Events of backupFailed, oldest first. */
export function backupEvents(): PlanEvent[] {
	return [
		planEvent('Normal', 'Started Action', 'Executing action backup', 58),
		planEvent('Normal', 'Started Phase', 'Executing phase createBackupPod', 57),
		planEvent('Normal', 'Started deferPhase', 'Executing deferPhase', 3),
		planEvent('Warning', 'ActionSetFailed', 'Failed to execute defer phase: pods "postgres-backup-x" not found', 1),
	];
}

export type SnapshotParts = {
	readonly objects: readonly PlanObject[];
	readonly timings?: ReadonlyMap<string, ReadonlyMap<string, NodeTiming>>;
	readonly events?: ReadonlyMap<string, readonly PlanEvent[]>;
	readonly connection?: ConnectionState;
	readonly lastEventAt?: number;
	readonly synced?: boolean;
	readonly fatal?: {readonly message: string; readonly exitCode: ExitCode};
};

let version = 0;

export function snapshotOf(parts: SnapshotParts): StoreSnapshot {
	return {
		version: ++version,
		objects: [...parts.objects].sort((a, b) => objectKey(a).localeCompare(objectKey(b))),
		timings: parts.timings ?? new Map(),
		events: parts.events ?? new Map(),
		connection: parts.connection ?? {status: 'live'},
		lastEventAt: parts.lastEventAt,
		synced: parts.synced ?? true,
		fatal: parts.fatal,
		transitions: [],
	};
}
