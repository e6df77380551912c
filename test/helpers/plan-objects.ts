/**
 * Hand-written PlanObjects (what the adapters produce), for view tests that must not depend on the adapters:
 * the two pictures of docs/ui-sketch.md.
 */
import type {PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {lineBreakMarker} from '../../source/model/sanitize.js';

type NodeInit = Omit<PlanNode, 'id' | 'children'> & {readonly children?: readonly NodeInit[]};

/** Builds ids the way the adapters do (`plan:deploy/phase:deploy/step:init`). */
export function nodes(inits: readonly NodeInit[], parent = ''): PlanNode[] {
	return inits.map(init => {
		const id = `${parent ? parent + '/' : ''}${init.kind}:${init.name}`;
		return {...init, id, children: nodes(init.children ?? [], id)};
	});
}

/** KUDO mysql-instance, deploy running (sketch: "One KUDO Instance, waiting"). */
export const mysqlDeploying: PlanObject = {
	kind: 'Instance',
	namespace: 'default',
	name: 'mysql-instance',
	createdAt: '2026-11-30T10:58:40Z',
	outcome: 'running',
	summary: 'deploy in progress: step init (1/3 steps done)',
	version: 'mysql-5.7-0.3.0',
	active: 'deploy',
	state: 'running',
	status: 'IN_PROGRESS',
	percent: 33,
	steps: {done: 1, total: 3},
	updatedAt: '2026-11-30T11:02:51Z',
	wait: {kind: 'Instance', scheduledPlan: 'deploy', scheduledUid: 'u1', planUids: {deploy: 'u1'}, activePlan: 'deploy', activeStatus: 'IN_PROGRESS', queued: false},
	tree: nodes([
		{
			kind: 'plan',
			name: 'deploy',
			status: 'IN_PROGRESS',
			state: 'running',
			strategy: 'serial',
			active: true,
			updatedAt: '2026-11-30T11:02:51Z',
			children: [
				{
					kind: 'phase',
					name: 'deploy',
					status: 'IN_PROGRESS',
					state: 'running',
					strategy: 'serial',
					children: [
						{kind: 'step', name: 'deploy', status: 'COMPLETE', state: 'succeeded'},
						{
							kind: 'step',
							name: 'init',
							status: 'ERROR',
							state: 'retrying',
							message: `A transient error when executing task deploy.deploy.init.init. Will retry.${lineBreakMarker}job "init" is not ready`,
						},
						{kind: 'step', name: 'cleanup', status: 'PENDING', state: 'pending'},
					],
				},
			],
		},
		{
			kind: 'plan',
			name: 'backup',
			status: 'NOT ACTIVE',
			state: 'inactive',
			strategy: 'serial',
			note: 'last run 2d ago: COMPLETE',
			children: [{kind: 'phase', name: 'backup', status: 'NOT ACTIVE', state: 'inactive', strategy: 'serial', children: [{kind: 'step', name: 'pv', status: 'NOT ACTIVE', state: 'inactive'}]}],
		},
	]),
};

/** Kanister backup-glptq: a core phase failed and the deferPhase failed too (sketch: "deferPhase"). */
export const backupDeferFailed: PlanObject = {
	kind: 'ActionSet',
	namespace: 'kanister',
	name: 'backup-glptq',
	createdAt: '2026-11-30T11:00:00Z',
	outcome: 'failed',
	summary: 'backup failed in phase copyFiles; deferPhase failed too - see events',
	version: 'postgres-bp',
	active: 'backup',
	state: 'failed',
	status: 'failed',
	percent: 62,
	error: 'pods "postgres-backup-x" not found',
	wait: {kind: 'ActionSet', state: 'failed', deferPending: false, deferRunning: false, runningPhase: ''},
	tree: nodes([
		{
			kind: 'action',
			name: 'backup',
			status: 'failed',
			state: 'failed',
			detail: 'statefulset postgres-test/my-release-postgresql',
			children: [
				{kind: 'phase', name: 'createBackupPod', status: 'complete', state: 'succeeded', startedAt: '2026-11-30T11:00:01Z', endedAt: '2026-11-30T11:00:05Z'},
				{kind: 'phase', name: 'waitForPodReady', status: 'complete', state: 'succeeded', startedAt: '2026-11-30T11:00:05Z', endedAt: '2026-11-30T11:00:19Z'},
				{
					kind: 'phase',
					name: 'copyFiles',
					status: 'failed',
					state: 'failed',
					message: 'exit status 3: snapshot upload refused',
					startedAt: '2026-11-30T11:00:19Z',
					endedAt: '2026-11-30T11:00:57Z',
				},
				{kind: 'phase', name: 'stopBackup', status: 'pending', state: 'pending', note: 'skipped after failure'},
				{kind: 'deferPhase', name: 'deferPhase', status: 'failed', state: 'failed', note: 'always runs', message: 'pods "postgres-backup-x" not found'},
			],
		},
	]),
};
