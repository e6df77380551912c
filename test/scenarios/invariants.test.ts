/** The checkers must catch what a real controller would never write, or the catalog tests prove nothing. */
import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {findScenario} from '../../source/scenarios/catalog.js';
import {actionSetProblems, eventProblems, instanceProblems} from './invariants.js';
import {play} from './play.js';

function final(name: string, resource: 'Instance' | 'ActionSet', object: string): {object: KubeObject; definition: KubeObject | undefined} {
	const p = play(findScenario(name)!);
	const o = p.get(resource, object)!;
	const definition = resource === 'Instance'
		? p.get('OperatorVersion', (o['spec'] as any).operatorVersion.name)
		: p.get('Blueprint', (o['spec'] as any).actions[0].blueprint);
	return {object: structuredClone(o), definition};
}

function midway(name: string, object: string, predicate: (o: any) => boolean): KubeObject {
	const p = play(findScenario(name)!);
	const found = p.changes.map(c => c.object).find(o => o.metadata?.name === object && predicate(o));
	if (!found) {
		throw new Error('no such state');
	}

	return structuredClone(found);
}

describe('instanceProblems', () => {
	it('accepts the scenario objects as they are', () => {
		const {object, definition} = final('kudo-fatal', 'Instance', 'mysql-orders');
		expect(instanceProblems(object, definition, true)).toEqual([]);
	});

	it.each([
		['an unknown status', (o: any) => {
			o.status.planStatus.deploy.phases[0].steps[0].status = 'DONE';
		}, /status DONE/],
		['a missing plan', (o: any) => {
			delete o.status.planStatus.backup;
		}, /planStatus plans/],
		['a phase that disagrees with its steps', (o: any) => {
			o.status.planStatus.restore.phases[0].status = 'IN_PROGRESS';
		}, /phase restore.restore: IN_PROGRESS/],
		['planExecution not cleared at terminal', (o: any) => {
			o.spec.planExecution = {planName: 'restore', uid: o.status.planStatus.restore.uid, status: 'FATAL_ERROR'};
		}, /still names this run/],
		['a fatal step without the engine message', (o: any) => {
			o.status.planStatus.restore.phases[0].steps[0].message = 'boom';
		}, /fatal message/],
		['a NEVER_RUN plan with a uid', (o: any) => {
			o.status.planStatus.deploy = {...o.status.planStatus.deploy, status: 'NEVER_RUN'};
		}, /NEVER_RUN/],
		['a bad Ready condition', (o: any) => {
			o.status.conditions[0].reason = 'Whatever';
		}, /conditions/],
	])('reports %s', (_what, mutate, problem) => {
		const {object, definition} = final('kudo-fatal', 'Instance', 'mysql-orders');
		mutate(object);
		expect(instanceProblems(object, definition, true).join('\n')).toMatch(problem);
	});

	it('reports serial steps started out of order and a running plan without planExecution', () => {
		const object: any = midway('mysql-deploy', 'mysql-instance', o => o.status?.planStatus?.deploy?.phases[0].steps[1].status === 'IN_PROGRESS');
		const p = play(findScenario('mysql-deploy')!);
		const ov = p.get('OperatorVersion', 'mysql-5.7-0.3.0');
		expect(instanceProblems(object, ov, true)).toEqual([]);
		object.status.planStatus.deploy.phases[0].steps[2].status = 'IN_PROGRESS';
		object.spec.planExecution = {};
		const problems = instanceProblems(object, ov, true).join('\n');
		expect(problems).toMatch(/serial steps started out of order/);
		expect(problems).toMatch(/running but spec.planExecution/);
	});
});

describe('actionSetProblems', () => {
	it('accepts the scenario objects as they are', () => {
		const {object, definition} = final('postgres-restore-failed', 'ActionSet', 'restore-backup-glptq-6jzt4');
		expect(actionSetProblems(object, definition)).toEqual([]);
	});

	it.each([
		['a phase running after a failed one', 'restore-defer-both-failed', 'restore-backup-glptq-m4k8v', (o: any) => {
			o.status.actions[0].phases[1].state = 'failed';
			o.status.actions[0].phases[0].state = 'failed';
			o.status.actions[0].phases[1].state = 'running';
		}, /after an unfinished phase/],
		['complete with a failed deferPhase', 'backup-defer-failed', 'backup-glptq', (o: any) => {
			o.status.state = 'complete';
			o.status.error.message = '';
		}, /complete while a phase or the deferPhase is not/],
		['a deferPhase marked running', 'mysql-backup', 'backup-rslmb', (o: any) => {
			o.status.actions[0].deferPhase.state = 'running';
		}, /never writes that/],
		['a wrong percentCompleted', 'backup-defer-failed', 'backup-glptq', (o: any) => {
			o.status.progress.percentCompleted = '62';
		}, /percentCompleted 62/],
		['a float percent', 'backup-defer-failed', 'backup-glptq', (o: any) => {
			o.status.actions[0].phases[0].progress.progressPercent = '100.00';
		}, /progressPercent/],
		['failed without a message', 'restore-defer-both-failed', 'restore-backup-glptq-m4k8v', (o: any) => {
			o.status.error.message = '';
		}, /state failed with error.message ""/],
		['an unknown state', 'mysql-backup', 'backup-rslmb', (o: any) => {
			o.status.state = 'completed';
		}, /state completed/],
	])('reports %s', (_what, scenario, name, mutate, problem) => {
		const {object, definition} = final(scenario, 'ActionSet', name);
		mutate(object);
		expect(actionSetProblems(object, definition).join('\n')).toMatch(problem);
	});
});

describe('eventProblems', () => {
	it('accepts controller events and rejects a made-up reason', () => {
		const p = play(findScenario('mysql-backup')!);
		const events = p.eventsFor('ActionSet', 'backup-rslmb');
		expect(events.flatMap(e => eventProblems(e))).toEqual([]);
		expect(eventProblems({...events[0]!, reason: 'Started'}).join()).toMatch(/Kanister event Started/);
		expect(eventProblems({...events[0]!, message: 'Executing action'}).join()).toMatch(/Kanister event/);
	});
});
