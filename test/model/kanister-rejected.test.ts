import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {onceExitCode} from '../../source/cli/describe-error.js';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {waitVerdict} from '../../source/model/wait-rules.js';

/*
 * Statuses Kanister's validation rejects (kanisterio/kanister pkg/validate/validate.go ActionSet, run by the
 * controller before it acts): the controller will never run them, so they are not "pending".
 */
const object = {kind: 'statefulset', namespace: 'db', name: 'mysql'};
const options = {now: Date.parse('2026-01-01T10:00:00Z'), deferGraceMs: 30_000, staleMs: 600_000};

function actionSet(status: unknown, actions = [{name: 'backup', blueprint: 'bp', object}]): KubeObject {
	return {apiVersion: 'cr.kanister.io/v1alpha1', kind: 'ActionSet', metadata: {name: 'as', namespace: 'kanister', creationTimestamp: '2026-01-01T09:59:00Z'}, spec: {actions}, status};
}

const adapt = (status: unknown) => adaptActionSet(actionSet(status), () => undefined, []);

describe('ActionSets Kanister\'s validation rejects', () => {
	test.each([
		['status: {}', {}, 'Number of actions in status actions and spec must match'],
		['a phase without a state', {state: 'pending', actions: [{name: 'backup', phases: [{name: 'dump'}]}]}, 'Action has unknown state \'\''],
		[
			'a running phase after a pending one',
			{state: 'running', actions: [{name: 'backup', phases: [{name: 'a', state: 'pending'}, {name: 'b', state: 'running'}]}]},
			'Phases after a pending one must be pending',
		],
		['an unknown ActionSet state', {state: 'done', actions: [{name: 'backup', phases: [{name: 'a', state: 'complete'}]}]}, 'ActionSet has unknown state \'done\''],
	])('%s: rejected, with the rule, and exit 1 under --wait and --once alike', (_, status, rule) => {
		const o = adapt(status);
		expect(o.summary).toBe(`rejected by Kanister's validation (pkg/validate): ${rule}; the controller will not run it`);
		expect(o).toMatchObject({state: 'unknown', wait: {rejected: rule}});
		expect(waitVerdict(o, o, options)).toEqual({done: true, exitCode: 1, summary: o.summary});
		expect(onceExitCode([o])).toBe(1);
	});

	test('no status at all is the controller\'s to initialise: pending, not rejected', () => {
		const o = adaptActionSet(actionSet(undefined), () => undefined, []);
		expect(o.wait).not.toHaveProperty('rejected');
		expect(waitVerdict(o, o, options)).toMatchObject({done: false});
	});

	test('a failed ActionSet without actions is the controller\'s own init failure, not a rejection', () => {
		const o = adapt({state: 'failed', error: {message: 'blueprint missing'}});
		expect(o.wait).not.toHaveProperty('rejected');
		expect(o.outcome).toBe('failed');
	});

	test('an inconsistent complete ActionSet: 1 under --once as under --wait', () => {
		const o = adapt({state: 'complete', actions: [{name: 'backup', phases: [{name: 'a', state: 'complete'}, {name: 'b', state: 'pending'}]}]});
		expect(waitVerdict(o, o, options)).toMatchObject({done: true, exitCode: 1});
		expect(onceExitCode([o])).toBe(1);
	});
});
