/**
 * `--wait` on an ActionSet with two actions, each with a deferPhase, on a real kube-apiserver: the first action
 * finishes (core phases and deferPhase) and maybeSetActionSetStateComplete writes `complete` while the second
 * action's deferPhase still runs (kanisterio/kanister pkg/controller/controller.go:707-745 checks only core
 * phases). planwatch must keep waiting, then exit 1 when that deferPhase fails (it rewrites the state to
 * `failed`, :618-627) or 0 when it completes.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {PlayContext, Scenario, ScenarioStep} from '../../source/scenarios/scenario.js';
import {controllerEvent} from '../../source/scenarios/kanister-builders.js';
import {cliFinal, killAllClis, startCli, type CliProcess} from './harness/cli.js';
import {startCluster, type Cluster} from './harness/cluster.js';
import {record} from './harness/results.js';
import {freshNamespace, playWatched} from './harness/scenario-run.js';

let cluster: Cluster;

beforeAll(async () => {
	cluster = await startCluster();
});

afterAll(async () => {
	killAllClis();
	await cluster?.stop();
});

const name = 'backup-and-verify';
const object = {apiVersion: '', group: '', resource: '', kind: 'statefulset', name: 'mysql', namespace: 'db'};
const spec = {
	actions: [
		{name: 'backup', blueprint: 'mysql-bp', object, preferredVersion: ''},
		{name: 'verify', blueprint: 'mysql-bp', object, preferredVersion: ''},
	],
};

type S = 'pending' | 'running' | 'complete' | 'failed';
type Moment = {state: S; backup: [S, S]; verify: [S, S]; runningPhase?: string; error?: string};

function status(at: number, m: Moment): ScenarioStep {
	const phase = (phaseName: string, s: S) => (ctx: PlayContext) => ({
		name: phaseName,
		state: s,
		progress: s === 'complete' ? {progressPercent: '100', lastTransitionTime: ctx.at(at)} : {},
	});
	return {
		at,
		op: 'status',
		resource: 'ActionSet',
		object: (ctx: PlayContext) => ({
			apiVersion: 'cr.kanister.io/v1alpha1',
			kind: 'ActionSet',
			metadata: {name},
			spec,
			status: {
				state: m.state,
				actions: [
					{name: 'backup', object, blueprint: 'mysql-bp', phases: [phase('dump', m.backup[0])(ctx)], deferPhase: phase('cleanupBackup', m.backup[1])(ctx)},
					{name: 'verify', object, blueprint: 'mysql-bp', phases: [phase('check', m.verify[0])(ctx)], deferPhase: phase('cleanupVerify', m.verify[1])(ctx)},
				],
				error: {message: m.error ?? ''},
				progress: {...(m.runningPhase ? {runningPhase: m.runningPhase} : {}), percentCompleted: '50', lastTransitionTime: ctx.at(at)},
			},
		}),
	};
}

function event(at: number, reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal'): ScenarioStep {
	return controllerEvent(at, {kind: 'ActionSet', name}, type, reason, message);
}

/** Index of the step that writes `complete` while verify's deferPhase runs. */
const completeStep = 8;

function scenario(verifyDeferFails: boolean): Scenario {
	const steps: ScenarioStep[] = [
		{at: 0, op: 'create', resource: 'ActionSet', object: {apiVersion: 'cr.kanister.io/v1alpha1', kind: 'ActionSet', metadata: {name}, spec}},
		status(300, {state: 'pending', backup: ['pending', 'pending'], verify: ['pending', 'pending']}),
		status(600, {state: 'running', backup: ['running', 'pending'], verify: ['running', 'pending'], runningPhase: 'check'}),
		status(1500, {state: 'running', backup: ['complete', 'pending'], verify: ['running', 'pending'], runningPhase: 'check'}),
		status(1800, {state: 'running', backup: ['complete', 'pending'], verify: ['running', 'pending'], runningPhase: 'cleanupBackup'}),
		event(1850, 'Started deferPhase', 'Executing deferPhase cleanupBackup'),
		status(2500, {state: 'running', backup: ['complete', 'pending'], verify: ['complete', 'pending'], runningPhase: 'cleanupVerify'}),
		event(2550, 'Started deferPhase', 'Executing deferPhase cleanupVerify'),
		// backup's deferPhase completes; its maybeSetActionSetStateComplete sees every core phase complete.
		status(3000, {state: 'complete', backup: ['complete', 'complete'], verify: ['complete', 'pending'], runningPhase: 'cleanupVerify'}),
		event(3050, 'Ended deferPhase', 'Completed deferPhase cleanupBackup'),
		verifyDeferFails
			? status(8000, {state: 'failed', backup: ['complete', 'complete'], verify: ['complete', 'failed'], error: 'pods "verify-cleanup" not found'})
			: status(8000, {state: 'complete', backup: ['complete', 'complete'], verify: ['complete', 'complete']}),
		verifyDeferFails
			? event(8050, 'ActionSetFailed Action: verify', 'Failed to execute defer phase: v1alpha1.Phase{Name:"cleanupVerify"}: pods "verify-cleanup" not found', 'Warning')
			: event(8050, 'Ended deferPhase', 'Completed deferPhase cleanupVerify'),
	];
	return {name: 'multi-action-defer', title: 'two actions, complete while a deferPhase runs', description: '', objects: steps};
}

describe.concurrent('an ActionSet complete while another action\'s deferPhase runs', () => {
	it.each([
		{fails: true, exitCode: 1, outcome: 'failed'},
		{fails: false, exitCode: 0, outcome: 'succeeded'},
	])('keeps waiting, then follows the deferPhase (fails: $fails → exit $exitCode)', async ({fails, exitCode, outcome}) => {
		const namespace = freshNamespace(fails ? 'multidefer-fail' : 'multidefer-ok');
		let json: CliProcess | undefined;
		let exitedEarly: string | undefined;
		let completeShown = false;
		const {appliedAt} = await playWatched(scenario(fails), {
			kubeconfig: cluster.adminKubeconfig,
			namespace,
			speed: 1,
			launchAfter: 0,
			launch: async () => {
				json = startCli([`actionset/${name}`, '--kubeconfig', cluster.adminKubeconfig, '-n', namespace, '--wait', '--timeout', '1m', '-o', 'json']);
				await json.waitForStdout(out => out.includes('\n'), 'the opening NDJSON snapshot');
			},
			at: {
				[completeStep]: async () => {
					// Let planwatch see the `complete` write (and the rest of the second before the final write).
					// planwatch saw the object turn `complete` (a transition line of the live NDJSON).
					await json!.waitForStdout(out => /"path":\[\],"from":"running","to":"complete"/.test(out), 'the transition to complete');
					completeShown = true;
					await new Promise(resolve => setTimeout(resolve, 2000));
					exitedEarly = json!.exit() ? json!.describe() : undefined;
				},
			},
		});
		expect(completeShown).toBe(true);
		expect(exitedEarly).toBeUndefined();
		const exit = await json!.waitForExit(30_000);
		expect(exit.code, json!.describe()).toBe(exitCode);
		expect(json!.exitedAt()!).toBeGreaterThanOrEqual(appliedAt.get(10)!);
		const final = cliFinal(json!.stdout());
		expect(final.objects[0]?.outcome).toBe(outcome);
		record({scenarios: 1, note: `multi-action deferPhase after complete → exit ${exitCode}`});
	});
});
